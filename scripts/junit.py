#!/usr/bin/env python3
"""junit.py - write a JUnit XML report of test results, for CI.

Reads lines "SUITE NAME LOG_DIR [POINTS]" on stdin, one a test, and writes
to stdout a <testsuites> with one <testsuite> a SUITE. Each test's outcome
is the first line of LOG_DIR/NAME.result (what tests/run.sh wrote: "PASS
name", "FAIL name (reason)" and the diff after it, "SKIP name (reason)");
a missing file counts as a failure. LOG_DIR/NAME.time holds the seconds
the boot took. POINTS, if given, is recorded as a property (make grade).
"""
import os
import sys
import xml.etree.ElementTree as ET


def clean(text):
    """XML 1.0 has no place for most control characters (a console's
    escape sequences): they become '?'."""
    return "".join(c if c in "\t\n\r" or 0x20 <= ord(c) < 0xd800 or 0xe000 <= ord(c) < 0xfffe
                   else "?" for c in text)


def main():
    suites = {}
    for line in sys.stdin:
        f = line.split()
        if len(f) < 3:
            continue
        suites.setdefault(f[0], []).append(f[1:])
    root = ET.Element("testsuites")
    for sname, tests in suites.items():
        suite = ET.SubElement(root, "testsuite", name=sname)
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        total = 0.0
        for t in tests:
            name, logdir = t[0], t[1]
            try:
                with open(os.path.join(logdir, name + ".result"), errors="replace") as r:
                    text = r.read()
            except OSError:
                text = "FAIL %s (did not run)\n" % name
            try:
                with open(os.path.join(logdir, name + ".time")) as r:
                    secs = float(r.read().strip() or 0)
            except (OSError, ValueError):
                secs = 0.0
            total += secs
            case = ET.SubElement(suite, "testcase", classname=sname, name=name,
                                 time="%.0f" % secs)
            if len(t) > 2:
                props = ET.SubElement(case, "properties")
                ET.SubElement(props, "property", name="points", value=t[2])
            first, _, rest = text.partition("\n")
            counts["tests"] += 1
            if first.startswith("PASS"):
                pass
            elif first.startswith("SKIP"):
                ET.SubElement(case, "skipped", message=clean(first[5:]))
                counts["skipped"] += 1
            else:
                fail = ET.SubElement(case, "failure", message=clean(first[5:]) or "failed")
                fail.text = clean(rest)
                counts["failures"] += 1
        for k, v in counts.items():
            suite.set(k, str(v))
        suite.set("errors", "0")
        suite.set("time", "%.0f" % total)
    ET.indent(root) if hasattr(ET, "indent") else None
    sys.stdout.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    sys.stdout.write(ET.tostring(root, encoding="unicode"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
