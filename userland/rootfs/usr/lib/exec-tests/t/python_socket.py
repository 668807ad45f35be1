# python_socket.py - Debian's python3 on AF_UNIX sockets: socket.socketpair,
# a server and a client on a filesystem name (a thread accepts), file
# descriptors passed with send_fds/recv_fds, and asyncio's event loop
# (epoll, and a socketpair to wake itself) running a unix server.
import asyncio, os, socket, threading

a, b = socket.socketpair()
a.sendall(b"ping")
print("socketpair:", b.recv(16))
print("peer:", b.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)[:4] != b"\0\0\0\0")
a.close(); b.close()

path = "/tmp/py.sock"
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(1)
def serve():
    conn, _ = srv.accept()
    with conn:
        conn.sendall(conn.recv(64).upper())
t = threading.Thread(target=serve)
t.start()
cli = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
cli.connect(path)
cli.sendall(b"hello server")
print("server says:", cli.recv(64))
t.join(); cli.close(); srv.close(); os.unlink(path)

x, y = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
r, w = os.pipe()
socket.send_fds(x, [b"fd"], [w])
msg, fds, flags, addr = socket.recv_fds(y, 16, 1)
os.write(fds[0], b"through a passed fd")
print("recv_fds:", msg, len(fds), os.read(r, 64))

async def main():
    async def handle(reader, writer):
        writer.write((await reader.readline()).upper())
        await writer.drain()
        writer.close()
    server = await asyncio.start_unix_server(handle, "/tmp/aio.sock")
    reader, writer = await asyncio.open_unix_connection("/tmp/aio.sock")
    writer.write(b"asyncio line\n")
    print("asyncio:", await reader.readline())
    writer.close()
    server.close()
    await server.wait_closed()
asyncio.run(main())
