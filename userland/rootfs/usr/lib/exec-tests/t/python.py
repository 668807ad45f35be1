# python.py - Debian's python3 (python3-minimal): a computation, a file
# written and read back, os.listdir, a few modules of the minimal library.
# (hashlib and subprocess are in python_futex.py: they need futex.)
import os, sys, re, struct, base64, collections, datetime
print("python", sys.version_info[:2])
print("sum of squares below 1000:", sum(i * i for i in range(1000)))
print("2**100 =", 2 ** 100)
with open("/tmp/py.txt", "w") as f:
    f.write("written by python\n")
print(open("/tmp/py.txt").read(), end="")
print(sorted(os.listdir("/tmp")))
print(sorted(n for n in os.listdir("/usr/lib/exec-tests/t") if n.endswith(".py")))
print(base64.b64encode(b"execve").decode(), collections.Counter("abracadabra").most_common(2))
print(datetime.datetime(2015, 1, 19) + datetime.timedelta(days=30))
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "user@host"))
print(struct.pack("<I", 0xdeadbeef).hex())
print("pid is a number:", os.getpid() > 0)
os.remove("/tmp/py.txt")
print("after remove:", os.path.exists("/tmp/py.txt"))
