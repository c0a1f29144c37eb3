"""What the benchmark scripts share: the CPU's name, and writing a table into a doc."""

import platform


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def write_table(path, marker, table):
    """Replaces the text between ``<!-- MARKER:start -->`` and ``<!-- MARKER:end -->``."""
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    with open(path) as f:
        text = f.read()
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(f"{head}{start}\n{table}\n{end}{tail}")
