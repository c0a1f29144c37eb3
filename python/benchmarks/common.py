"""What the benchmark scripts share: the CPU's name, and writing a table into a doc."""

import platform


def cpu_name():
    """The CPU's model name, family and model (from /proc/cpuinfo on Linux)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        return platform.processor() or "unknown CPU"
    name, family, model = (fields.get(k) for k in ("model name", "cpu family", "model"))
    return f"{name} (family {family} model {model})"


def report(lines, path, marker):
    """Prints the table; with a ``path``, also replaces the text between
    ``<!-- MARKER:start -->`` and ``<!-- MARKER:end -->`` in that file with it."""
    table = "\n".join(lines)
    print(table)
    if not path:
        return
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    with open(path) as f:
        text = f.read()
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(f"{head}{start}\n{table}\n{end}{tail}")
