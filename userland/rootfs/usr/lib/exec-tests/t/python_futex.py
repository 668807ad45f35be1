# python_futex.py - what Debian's python3 does that needs futex(2):
# hashlib loads OpenSSL's libcrypto, whose start-up wakes futex waiters
# (pthread_once); subprocess runs a child and reads its output.
import hashlib, subprocess
print(hashlib.sha256(b"execve").hexdigest())
print(subprocess.run(["/bin/echo", "from a child"], capture_output=True, text=True).stdout, end="")
