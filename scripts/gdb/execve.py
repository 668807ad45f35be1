# execve.py - gdb helpers for this kernel (make gdb loads them).
#
#   lx-ps                   the task list: pid, tgid, state, comm, mm
#   lx-pagetables [PID|MM]  the user pages of a process (default: current),
#                           or of an mm (lx-pagetables bprm->mm: the one an
#                           exec builds): address ranges, rights, and how
#                           many owners the frames have (copy-on-write: > 1)
#   lx-pte ADDR [PID|MM]    the walk of one address through the four
#                           levels of tables, entry by entry
#   lx-bprm [EXPR]          a struct linux_binprm, strings and buf decoded
#                           (default: the variable bprm of the selected frame)
#
# The names follow Linux's own gdb scripts (scripts/gdb/, lx-ps) where
# there is one. They read memory through the kernel's direct map of
# physical memory (PHYS_MAP_BASE), so they work in any frame, whatever
# CR3 holds.
import gdb

PHYS_MAP_BASE = 0xffff800000000000
PTE_P, PTE_W, PTE_U, PTE_PS = 1 << 0, 1 << 1, 1 << 2, 1 << 7
PTE_NX = 1 << 63
PTE_ADDR = 0x000ffffffffff000
STATES = ["RUNNABLE", "SLEEPING", "STOPPED", "ZOMBIE", "DEAD"]


def u64(value):
    return int(value) & 0xffffffffffffffff


def need_target():
    """Refuse to run without a live kernel: gdb would read the file's own
    zeros and print an empty table."""
    inferior = gdb.selected_inferior()
    if inferior.pid == 0 or not inferior.threads():
        raise gdb.GdbError("no target: QEMU is not connected "
                           "(make gdb connects with 'target remote :1234')")


def read_u64(addr):
    inferior = gdb.selected_inferior()
    return int.from_bytes(bytes(inferior.read_memory(addr, 8)), "little")


def tasks():
    t = gdb.parse_and_eval("task_list")
    while u64(t) != 0:
        yield t
        t = t["next_task"]


def current_task():
    """The task the selected CPU runs: QEMU's gdb threads are the CPUs, in
    order, and cpus[n] is CPU n's struct percpu (include/percpu.h)."""
    n = gdb.selected_thread().num - 1
    return gdb.parse_and_eval("cpus[%d].current_task" % n)


def find_task(pid):
    if pid is None:
        return current_task()
    for t in tasks():
        if int(t["pid"]) == pid:
            return t
    raise gdb.GdbError("no task with pid %d" % pid)


def find_mm(arg):
    """The struct mm * that arg names: a pid, an expression of type struct
    mm * (bprm->mm: the address space an exec builds) or struct task *;
    current's if arg is empty."""
    arg = arg.strip()
    if not arg or arg.isdigit():
        t = find_task(int(arg) if arg else None)
        if u64(t["mm"]) == 0:
            raise gdb.GdbError("pid %d has no mm (a kernel task)" % int(t["pid"]))
        return t["mm"], "pid %d (%s)" % (int(t["pid"]), t["comm"].string())
    v = gdb.parse_and_eval(arg)
    if v.type.strip_typedefs().target().name == "task":
        v = v["mm"]
    return v, arg


def rights(e):
    return ("r" + ("w" if e & PTE_W else "-") + ("-" if e & PTE_NX else "x") +
            ("u" if e & PTE_U else "k"))


def page_refs(phys):
    try:
        refs = gdb.parse_and_eval("page_refs")
        return int(refs[phys >> 12])
    except gdb.error:
        return -1


class LxPs(gdb.Command):
    """List the tasks: lx-ps."""

    def __init__(self):
        super().__init__("lx-ps", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        need_target()
        cur = u64(current_task())
        print("%-6s %-6s %-9s %-16s %-18s %s" % ("PID", "TGID", "STATE", "COMM", "MM", "TASK"))
        for t in tasks():
            state = int(t["state"])
            print("%-6d %-6d %-9s %-16s %-18s %s%s" % (
                int(t["pid"]), int(t["tgid"]),
                STATES[state] if state < len(STATES) else str(state),
                t["comm"].string(), hex(u64(t["mm"])), hex(u64(t)),
                "  <- current" if u64(t) == cur else ""))


def walk(pml4, level, base, out):
    """Collect (va, pte) of every present user page under the table."""
    span = 1 << (12 + 9 * (level - 1))
    n = 256 if level == 4 else 512  # the PML4's upper half is the kernel's
    for i in range(n):
        e = read_u64(pml4 + 8 * i)
        if not e & PTE_P:
            continue
        va = base + i * span
        if level == 1 or e & PTE_PS:
            out.append((va, e, span))
        else:
            walk(PHYS_MAP_BASE + (e & PTE_ADDR), level - 1, va, out)


class LxPagetables(gdb.Command):
    """The user pages of a process: lx-pagetables [PID|MM] (default current)."""

    def __init__(self):
        super().__init__("lx-pagetables", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        need_target()
        mm, who = find_mm(arg)
        pages = []
        walk(u64(mm["pml4"]), 4, 0, pages)
        print("%s: pml4 at %s, %d pages present" % (who, hex(u64(mm["pml4"])), len(pages)))
        # Runs of pages with the same rights and owner count.
        run = None
        for va, e, span in pages + [(None, 0, 0)]:
            key = (rights(e), page_refs(e & PTE_ADDR)) if va is not None else None
            if run and va == run[1] and key == run[2]:
                run[1] = va + span
                continue
            if run:
                print("  %016x-%016x %s  %4d pages, %s owner(s) each" % (
                    run[0], run[1], run[2][0], (run[1] - run[0]) >> 12,
                    run[2][1] if run[2][1] >= 0 else "?"))
            run = [va, va + span, key] if va is not None else None


class LxPte(gdb.Command):
    """Walk one address through the page tables: lx-pte ADDR [PID|MM]."""

    def __init__(self):
        super().__init__("lx-pte", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        need_target()
        args = gdb.string_to_argv(arg)
        if not args:
            raise gdb.GdbError("usage: lx-pte ADDR [PID|MM]")
        va = u64(gdb.parse_and_eval(args[0]))
        mm, _ = find_mm(" ".join(args[1:]))
        table = u64(mm["pml4"])
        for level, name in ((4, "PML4"), (3, "PDPT"), (2, "PD"), (1, "PT")):
            index = (va >> (12 + 9 * (level - 1))) & 511
            e = read_u64(table + 8 * index)
            print("  %-4s[%3d] = %#018x  %s" % (name, index, e,
                                               rights(e) if e & PTE_P else "not present"))
            if not e & PTE_P:
                return
            if level == 1 or e & PTE_PS:
                phys = (e & PTE_ADDR) + (va & ((1 << (12 + 9 * (level - 1))) - 1))
                print("  %#x -> physical %#x, frame owners %d" % (
                    va, phys, page_refs(e & PTE_ADDR)))
                return
            table = PHYS_MAP_BASE + (e & PTE_ADDR)


class LxBprm(gdb.Command):
    """Print a struct linux_binprm: lx-bprm [EXPR] (default: bprm)."""

    def __init__(self):
        super().__init__("lx-bprm", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        need_target()
        b = gdb.parse_and_eval(arg.strip() or "bprm")
        if b.type.code == gdb.TYPE_CODE_PTR:
            b = b.dereference()

        def s(field):
            p = b[field]
            return '"%s"' % p.string() if u64(p) else "NULL"

        print("linux_binprm at %s" % hex(u64(b.address)) if b.address else "linux_binprm")
        print("  filename %s, interp %s, fdpath %s" % (s("filename"), s("interp"), s("fdpath")))
        print("  argc %d, envc %d, p %#x, argmin %#x, exec (AT_EXECFN) %#x" % (
            int(b["argc"]), int(b["envc"]), u64(b["p"]), u64(b["argmin"]), u64(b["exec"])))
        print("  mm %s, file %s, interpreter %s, executable %s" % tuple(
            hex(u64(b[f])) for f in ("mm", "file", "interpreter", "executable")))
        print("  interp_flags %#x, have_execfd %s, execfd %d, secureexec %s, "
              "point_of_no_return %s" % (
                  int(b["interp_flags"]), bool(b["have_execfd"]), int(b["execfd"]),
                  bool(b["secureexec"]), bool(b["point_of_no_return"])))
        buf = bytes(int(b["buf"][i]) & 0xff for i in range(64))
        print("  buf: %s" % " ".join("%02x" % c for c in buf[:16]))
        line = buf.split(b"\n")[0].split(b"\0")[0]
        print("  buf's first line: %r" % line.decode("latin-1"))


LxPs()
LxPagetables()
LxPte()
LxBprm()
print("execve.py: lx-ps, lx-pagetables [PID|MM], lx-pte ADDR [PID|MM], lx-bprm [EXPR]")
