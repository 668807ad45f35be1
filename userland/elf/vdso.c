/*
 * vdso.c - the vDSO the kernel maps into every process: the ELF shared
 * object at AT_SYSINFO_EHDR, its name, its exported functions with their
 * version, and that calling them gives what the system calls give. Then
 * [vvar] and [vdso] in /proc/self/maps.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const Elf64_Ehdr *eh;
static uintptr_t bias;
static const Elf64_Sym *symtab;
static const char *strtab;
static const Elf64_Half *versym;
static const Elf64_Verdef *verdef;
static unsigned nsyms;

static const char *version_of(unsigned i)
{
	unsigned v = versym ? versym[i] & 0x7fff : 0;
	const Elf64_Verdef *d = verdef;

	while (d) {
		if (d->vd_ndx == v && !(d->vd_flags & VER_FLG_BASE)) {
			const Elf64_Verdaux *a = (const void *)((const char *)d + d->vd_aux);
			return strtab + a->vda_name;
		}
		d = d->vd_next ? (const void *)((const char *)d + d->vd_next) : NULL;
	}
	return "(none)";
}

static void *sym(const char *name)
{
	for (unsigned i = 1; i < nsyms; i++)
		if (!strcmp(strtab + symtab[i].st_name, name) && symtab[i].st_shndx != SHN_UNDEF)
			return (void *)(bias + symtab[i].st_value);
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = NULL;
	const char *soname = NULL;
	char *lines[64];
	int n = 0;

	eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	if (!eh) {
		printf("no vDSO\n");
		return 1;
	}
	ph = (const void *)((const char *)eh + eh->e_phoff);
	printf("vDSO: %s, e_type %s, %d program headers:", memcmp(eh, ELFMAG, SELFMAG) ? "not ELF" : "ELF",
	       eh->e_type == ET_DYN ? "ET_DYN" : "other", eh->e_phnum);
	for (int i = 0; i < eh->e_phnum; i++) {
		const char *t = ph[i].p_type == PT_LOAD ? "LOAD" : ph[i].p_type == PT_DYNAMIC ? "DYNAMIC" :
				ph[i].p_type == PT_NOTE ? "NOTE" : ph[i].p_type == PT_GNU_EH_FRAME ? "GNU_EH_FRAME" :
				ph[i].p_type == PT_GNU_STACK ? "GNU_STACK" : "other";
		printf(" %s", t);
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((uintptr_t)eh + ph[i].p_vaddr);
	}
	printf("\n");
	bias = (uintptr_t)eh; /* linked at 0 */
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_SYMTAB: symtab = (const void *)(bias + dyn->d_un.d_ptr); break;
		case DT_STRTAB: strtab = (const void *)(bias + dyn->d_un.d_ptr); break;
		case DT_VERSYM: versym = (const void *)(bias + dyn->d_un.d_ptr); break;
		case DT_VERDEF: verdef = (const void *)(bias + dyn->d_un.d_ptr); break;
		case DT_HASH: nsyms = ((const Elf32_Word *)(bias + dyn->d_un.d_ptr))[1]; break;
		}
	}
	{
		const Elf64_Phdr *p = (const void *)((const char *)eh + eh->e_phoff);
		for (int i = 0; i < eh->e_phnum; i++)
			if (p[i].p_type == PT_DYNAMIC)
				for (const Elf64_Dyn *d = (const void *)(bias + p[i].p_vaddr); d->d_tag; d++)
					if (d->d_tag == DT_SONAME)
						soname = strtab + d->d_un.d_val;
	}
	printf("soname: %s; DT_HASH: %s\n", soname ? soname : "(none)", nsyms ? "yes" : "no");
	for (unsigned i = 1; i < nsyms; i++) {
		const Elf64_Sym *s = &symtab[i];
		char *l;

		if (s->st_shndx == SHN_UNDEF || ELF64_ST_BIND(s->st_info) == STB_LOCAL)
			continue;
		if (asprintf(&l, "  %s@%s %s %s", strtab + s->st_name, version_of(i),
			     ELF64_ST_TYPE(s->st_info) == STT_FUNC ? "FUNC" : ELF64_ST_TYPE(s->st_info) == STT_OBJECT ? "OBJECT" : "other",
			     ELF64_ST_BIND(s->st_info) == STB_WEAK ? "WEAK" : "GLOBAL") > 0 && n < 64)
			lines[n++] = l;
	}
	qsort(lines, n, sizeof(lines[0]), cmp);
	printf("%d exported symbols:\n", n);
	for (int i = 0; i < n; i++)
		printf("%s\n", lines[i]);

	/* Call them; compare with the system calls. */
	int (*vgettime)(clockid_t, struct timespec *) = sym("__vdso_clock_gettime");
	int (*vgetres)(clockid_t, struct timespec *) = sym("__vdso_clock_getres");
	int (*vgtod)(struct timeval *, void *) = sym("__vdso_gettimeofday");
	time_t (*vtime)(time_t *) = sym("__vdso_time");
	long (*vgetcpu)(unsigned *, unsigned *, void *) = sym("__vdso_getcpu");
	struct timespec a, b, c;
	struct timeval tv;
	clockid_t clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID,
			       CLOCK_THREAD_CPUTIME_ID, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME_COARSE,
			       CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME };

	for (unsigned i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		int r1, r2, r3;
		r1 = syscall(SYS_clock_gettime, clocks[i], &a);
		r2 = vgettime(clocks[i], &b);
		r3 = syscall(SYS_clock_gettime, clocks[i], &c);
		long long ta = a.tv_sec * 1000000000LL + a.tv_nsec, tb = b.tv_sec * 1000000000LL + b.tv_nsec,
			  tc = c.tv_sec * 1000000000LL + c.tv_nsec;
		/* coarse clocks may lag by a tick (Linux's is 4 ms) */
		printf("clock %u: __vdso_clock_gettime returns %d, %s\n", (unsigned)clocks[i], r2,
		       r1 == r2 && r2 == r3 && tb >= ta - 10000000 && tb <= tc + 10000000 ?
			       "between two clock_gettime calls" : "DIFFERENT");
	}
	printf("clock 99: __vdso_clock_gettime returns %d\n", vgettime(99, &b));
	for (unsigned i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		int r1 = vgetres(clocks[i], &b), r2 = syscall(SYS_clock_getres, clocks[i], &a);
		printf("clock %u: __vdso_clock_getres returns %d, %s\n", (unsigned)clocks[i], r1,
		       r1 == r2 && a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec ? "as clock_getres" : "DIFFERENT");
	}
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &a);
	printf("__vdso_gettimeofday: %d, ", vgtod(&tv, NULL));
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &c);
	printf("%s\n", tv.tv_sec >= a.tv_sec && tv.tv_sec <= c.tv_sec ? "between" : "DIFFERENT");
	time_t t1 = vtime(NULL), t2;
	vtime(&t2);
	printf("__vdso_time: %s\n", t1 <= t2 && t2 - t1 < 2 && t1 >= a.tv_sec ? "now" : "DIFFERENT");
	unsigned cpu = 99, node = 99;
	long r = vgetcpu(&cpu, &node, NULL);
	printf("__vdso_getcpu: %ld, cpu %u, node %u\n", r, cpu, node);
	r = vgetcpu(NULL, NULL, NULL);
	printf("__vdso_getcpu(NULL, NULL): %ld\n", r);
	cpu = node = 99;
	r = syscall(SYS_getcpu, &cpu, &node, NULL);
	printf("getcpu: %ld, cpu %u, node %u\n", r, cpu, node);

	/* And the C library's own calls go through it (no way to tell from
	 * here but that they work). */
	printf("clock_gettime: %d\n", clock_gettime(CLOCK_MONOTONIC, &a));

	mount("proc", "/proc", "proc", 0, NULL);
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	unsigned long vv_lo = 0, vv_hi = 0, vd_lo = 0, vd_hi = 0;
	char vvperm[8] = "", vdperm[8] = "";
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "[vvar]"))
			sscanf(line, "%lx-%lx %4s", &vv_lo, &vv_hi, vvperm);
		if (strstr(line, "[vdso]"))
			sscanf(line, "%lx-%lx %4s", &vd_lo, &vd_hi, vdperm);
	}
	printf("[vvar] %s, %lu pages; [vdso] %s, %lu pages, right above [vvar]: %s; at AT_SYSINFO_EHDR: %s\n",
	       vvperm, (vv_hi - vv_lo) / 4096, vdperm, (vd_hi - vd_lo) / 4096, vv_hi == vd_lo ? "yes" : "no",
	       vd_lo == (uintptr_t)eh ? "yes" : "no");
	return 0;
}
