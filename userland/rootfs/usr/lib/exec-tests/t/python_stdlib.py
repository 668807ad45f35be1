# python_stdlib.py - Debian's python3 with its whole standard library
# (libpython3.11-stdlib, not only the -minimal packages): pure-Python
# modules (queue, json, argparse, textwrap) and the extension modules that
# need the package's shared libraries: _sqlite3 (libsqlite3), _decimal
# (libmpdec), _bz2, _lzma, _ctypes (libffi), _uuid, _hashlib (libssl).
import queue, json, argparse, textwrap, sqlite3, decimal, bz2, lzma, ctypes, uuid, hashlib

q = queue.Queue()
for n in (3, 1, 2):
    q.put(n)
print("queue:", [q.get() for _ in range(3)])
print("json:", json.dumps({"exec": ["argv", "envp"], "n": 3}, sort_keys=True))
p = argparse.ArgumentParser(prog="demo")
p.add_argument("--count", type=int, default=1)
print("argparse:", p.parse_args(["--count", "7"]).count)
print("textwrap:", textwrap.wrap("how programs get run, from execve to main", 16))
db = sqlite3.connect(":memory:")
db.execute("create table t (name text, n int)")
db.executemany("insert into t values (?, ?)", [("elf", 2), ("script", 1), ("misc", 3)])
print("sqlite3:", db.execute("select name from t order by n").fetchall())
decimal.getcontext().prec = 30
print("decimal:", decimal.Decimal(1) / decimal.Decimal(7))
data = b"execve " * 100
print("bz2:", len(data), bz2.decompress(bz2.compress(data)) == data)
print("lzma:", lzma.decompress(lzma.compress(data)) == data)
print("ctypes:", ctypes.c_int32(-5).value, ctypes.sizeof(ctypes.c_long))
print("uuid:", uuid.UUID("12345678123456781234567812345678").hex)
print("sha256:", hashlib.sha256(b"execve").hexdigest()[:16])
