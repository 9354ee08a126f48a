"""MkDocs hook: links and pictures from a page to files of the repository outside docs/, and
doctest paragraphs in docstrings.

A page may link to a repository file by its relative path, e.g.
``[bench/README.md](../bench/README.md)``: the link works where the repository itself is
browsed.  In the site:

- a picture (``![...](../examples/board.svg)``) is copied into the site under the same path
  and shown;
- a link to any other file becomes the file's path in code type, since the site holds no copy
  of it.

A link or picture whose file does not exist is a warning, which fails ``mkdocs build --strict``
as any broken link does.
"""
import logging
import os
import re

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.repo_links")
LINK = re.compile(r"(!?)\[([^\]]*)\]\((\.\./[^)\s#]+)(#[^)]*)?\)")


def _outside(config, page_src, target):
    """The repository path of a ../ target of a page, or None when it stays inside docs/."""
    docs = os.path.abspath(config["docs_dir"])
    path = os.path.normpath(os.path.join(docs, os.path.dirname(page_src), target))
    if os.path.commonpath([path, docs]) == docs:
        return None
    return os.path.relpath(path, os.path.dirname(docs))


def on_files(files, config):
    """Adds the repository pictures the pages show to the site, under their own paths."""
    docs = os.path.abspath(config["docs_dir"])
    root = os.path.dirname(docs)
    for f in list(files.documentation_pages()):
        with open(f.abs_src_path, encoding="utf-8") as fh:
            text = fh.read()
        for m in LINK.finditer(text):
            rel = _outside(config, f.src_path, m.group(3))
            if m.group(1) and rel and os.path.isfile(os.path.join(root, rel)) \
                    and files.get_file_from_path(rel) is None:
                files.append(File(rel, root, config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files):
    root = os.path.dirname(os.path.abspath(config["docs_dir"]))
    depth = page.file.src_path.count("/")

    def repl(m):
        image, text, target = m.group(1), m.group(2), m.group(3)
        rel = _outside(config, page.file.src_path, target)
        if rel is None:
            return m.group(0)
        if not os.path.exists(os.path.join(root, rel)):
            log.warning("%s links to %s, which is not in the repository", page.file.src_path,
                        target)
            return m.group(0)
        if image:
            return f"![{text}]({'../' * depth}{rel})"
        return f"`{rel}`" if text.strip("`").rstrip("/") == rel else f"{text} (`{rel}`)"

    return LINK.sub(repl, markdown)


class _DoctestPreprocessor(Preprocessor):
    """Sets a doctest paragraph of a docstring (``>>>`` lines and their output, up to a blank
    line) as a Python code block, as Python's own documentation shows them; without it
    Markdown reads ``>>>`` as nested quotes and ``[a][b]`` as a link."""

    def run(self, lines):
        out, fence, doctest = [], None, False
        for line in lines:
            stripped = line.lstrip()
            if doctest:
                if not stripped:
                    out.extend(["```", line])
                    doctest = False
                else:
                    out.append(line)
                continue
            if fence:
                if stripped.startswith(fence):
                    fence = None
                out.append(line)
            elif stripped.startswith("```") or stripped.startswith("~~~"):
                fence = stripped[:3]
                out.append(line)
            elif line.startswith(">>> ") and (not out or not out[-1].strip()):
                out.extend(["```pycon", line])
                doctest = True
            else:
                out.append(line)
        if doctest:
            out.append("```")
        return out


class DoctestExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(_DoctestPreprocessor(md), "tne_doctest", 40)


@event_priority(100)
def on_config(config):
    """Adds the doctest paragraphs' extension to the pages' Markdown and so to mkdocstrings',
    which reads the same extensions."""
    config.markdown_extensions.append(DoctestExtension())
    return config
