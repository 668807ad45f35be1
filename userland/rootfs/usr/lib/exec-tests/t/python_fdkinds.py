# python_fdkinds.py - Debian's python3 on memfd_create, eventfd and the
# signals a program waits for (os.memfd_create, fcntl's seals, mmap,
# os.eventfd, select.epoll, signal.sigwait). asyncio's loop needs a
# socketpair: it waits for AF_UNIX sockets.
import fcntl, mmap, os, select, signal

fd = os.memfd_create("py", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
os.write(fd, b"hello from a memfd")
st = os.fstat(fd)
print(oct(st.st_mode), st.st_nlink, st.st_size, os.get_inheritable(fd))
with mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ) as m:
    print(m[:5])
fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK)
print("seals", fcntl.fcntl(fd, fcntl.F_GET_SEALS))
try:
    os.ftruncate(fd, 1)
except PermissionError as e:
    print("ftruncate:", e.strerror)

efd = os.eventfd(2, os.EFD_NONBLOCK | os.EFD_SEMAPHORE)
ep = select.epoll()
ep.register(efd, select.EPOLLIN)
print("epoll", ep.poll(0) == [(efd, select.EPOLLIN)])
print("reads", os.eventfd_read(efd), os.eventfd_read(efd))
try:
    os.eventfd_read(efd)
except BlockingIOError:
    print("then EAGAIN")
os.eventfd_write(efd, 5)
print("epoll", ep.poll(1) == [(efd, select.EPOLLIN)])

signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
os.kill(os.getpid(), signal.SIGUSR1)
print("sigwait", signal.sigwait({signal.SIGUSR1}) == signal.SIGUSR1)
