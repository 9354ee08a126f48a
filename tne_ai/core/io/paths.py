"""Checks of the file and directory names a user gives, made before any work starts, so that
a bad ``-o``/``--out``/``--svg``... is one line naming the option rather than an error after
minutes of search (docs/cli.md, its opening).  InputError starting with ``what`` otherwise.
``write_atomic`` replaces a file at once (a temporary file renamed over it)."""
import errno
import os
import stat

from tne_ai import limits as L
from tne_ai.errors import InputError


def _name_checks(path, what):
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"{what}: expected a file name, got {type(path).__name__}")
    name = os.fspath(path)
    if name == "":
        raise InputError(f"{what}: the file name is empty")
    if "\0" in name:
        raise InputError(f"{what}: the file name holds a NUL character")
    try:
        raw = os.fsencode(name)
    except UnicodeError:
        raise InputError(f"{what}: the file name is not valid text") from None
    if len(raw) >= L.MAX_PATH_BYTES:
        raise InputError(f"{what}: the file name is {len(raw)} bytes long (at most "
                         f"{L.MAX_PATH_BYTES - 1})")
    longest = max(len(part) for part in raw.split(b"/"))
    if longest > L.MAX_NAME_BYTES:
        raise InputError(f"{what}: a part of the file name is {longest} bytes long (at most "
                         f"{L.MAX_NAME_BYTES})")
    return name


def _shown(name):
    return L.clip(name, 80)


def check_output_file(path, what):
    """``path`` names a file that can be written: not a directory, in an existing directory,
    and writable (tried without changing anything: an existing file is opened for writing
    without truncation, a new one created and removed again).  Returns the name."""
    name = _name_checks(path, what)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise InputError(f"{what}: {_shown(name)}: cannot write: {e.strerror}") from None
    if mode is not None:
        if stat.S_ISDIR(mode):
            raise InputError(f"{what}: {_shown(name)}: is a directory, not a file")
        if not (stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise InputError(f"{what}: {_shown(name)}: is not a regular file")
        try:
            os.close(os.open(name, os.O_WRONLY | os.O_NONBLOCK))
        except OSError as e:
            raise InputError(f"{what}: {_shown(name)}: cannot write: {e.strerror}") from None
        return name
    parent = os.path.dirname(name) or "."
    if not os.path.isdir(parent):
        why = "is not a directory" if os.path.exists(parent) else "no such directory"
        raise InputError(f"{what}: {_shown(name)}: cannot write: {why}: {_shown(parent)}")
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:   # made meanwhile: fine
        return name
    except OSError as e:
        reason = e.strerror or errno.errorcode.get(e.errno, "error")
        raise InputError(f"{what}: {_shown(name)}: cannot write: {reason}") from None
    os.close(fd)
    os.unlink(name)
    return name


def check_input_file(path, what):
    """``path`` names an existing file that can be read (not a directory).  Returns it."""
    name = _name_checks(path, what)
    try:
        mode = os.stat(name).st_mode
    except OSError as e:
        raise InputError(f"{what}: {_shown(name)}: cannot read: {e.strerror}") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{what}: {_shown(name)}: is a directory, not a file")
    if not os.access(name, os.R_OK):
        raise InputError(f"{what}: {_shown(name)}: cannot read: permission denied")
    return name


def write_atomic(path, text):
    """Replace the file ``path`` by ``text`` (UTF-8) at once: the text goes to a temporary
    file beside it (``<path>.<pid>.tmp``), is flushed and fsynced, and is renamed over
    ``path`` (os.replace), so that a reader, a crash or a kill finds the old file or the new,
    never a part of one.  A ``path`` that exists and is not a regular file (``/dev/null``, a
    pipe) is written in place: it cannot be renamed over.  OSError if the write fails; the
    temporary is removed then and ``path`` is as it was."""
    name = os.fspath(path)
    try:
        regular = stat.S_ISREG(os.stat(name).st_mode)
    except FileNotFoundError:
        regular = True
    if not regular:
        with open(name, "w", encoding="utf-8") as f:
            f.write(text)
        return
    tmp = f"{name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, name)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def loaded_once(cache, path, load):
    """``load(path)``, kept in the dict ``cache`` per version of the file (its absolute path,
    size and modification time), so that a file read at every move is read once; a path that
    cannot be stat'ed is loaded each time (``load`` then raises its own error)."""
    try:
        st = os.stat(path)
        key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    except (OSError, ValueError):
        return load(path)
    if key not in cache:
        cache[key] = load(path)
    return cache[key]
