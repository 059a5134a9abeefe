"""A section of BENCHMARKS.md that a script of its own measures and writes (every
bench-* script that writes one): between two markers named after the script,
replaced where it stands on the next run, or appended the first time (scripts/bench
rewrites the file without them, then runs the scripts in the order their sections
come). What lies outside a script's markers, the hand-written blocks among it, is
left as it is."""
import os
import tempfile

# scripts/lib/ -> the repository
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "BENCHMARKS.md")


def markers(script):
    """The lines that open and close `script`'s section ("bench-status")."""
    return f"<!-- scripts/{script} writes from here -->", f"<!-- scripts/{script} writes up to here -->"


def section(script, lines):
    """`lines` as `script`'s section, between its markers."""
    begin, end = markers(script)
    return "\n".join([begin, *lines, end, ""])


def write(script, text):
    """Puts `text` (from `section`) into BENCHMARKS.md in place of `script`'s
    previous section; the file is replaced whole (a temporary file, then rename)."""
    begin, end = markers(script)
    with open(PATH) as f:
        old = f.read()
    if begin in old and end in old:
        before, rest = old.split(begin, 1)
        new = before + text.rstrip("\n") + rest.split(end, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    replace_file(new)
    print(f"scripts/{script}: wrote its section of BENCHMARKS.md")


def replace_file(text):
    """BENCHMARKS.md replaced whole by `text`: a temporary file beside it, then a
    rename, never a write through it (an interrupted run leaves the old file)."""
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(PATH), prefix=".BENCHMARKS.md.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(temporary, 0o644)
    os.replace(temporary, PATH)
