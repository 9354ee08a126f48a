"""Reading what users give tne_ai: JSON texts, files, stdin and numbers (json_reader.py)."""
from tne_ai.core.io.paths import check_input_file, check_output_file, write_atomic
from tne_ai.core.io.json_reader import (check_value, describe_size, input_lines, parse_float, parse_int,
                          read_input, read_json)

__all__ = ["check_input_file", "check_output_file", "write_atomic", "read_json", "check_value", "read_input", "input_lines", "parse_int", "parse_float",
           "describe_size"]
