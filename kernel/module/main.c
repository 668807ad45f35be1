/*
 * main.c - loadable modules: init_module(2), finit_module(2),
 * delete_module(2), and the reference counts that keep a module in use
 * from going away.
 *
 * A module arrives as the bytes of a .ko file: an ELF relocatable object,
 * the output of the compiler and "ld -r", linked to no address yet.
 * Loading it is linking it into the running kernel, a sister of what the
 * ELF loader does for programs (docs/modules.md draws it). In the order of
 * this file, which keeps Linux 6.1's names:
 *
 *   init_module / finit_module   root only (EPERM); the bytes, from user
 *                                memory or from a file, into a buffer
 *   load_module
 *     module_sig_check           a signature appended to the file is cut
 *                                off (not checked: no keys here)
 *     elf_validity_check         an x86-64 ET_REL object whose headers and
 *                                sections all lie inside the file (ENOEXEC)
 *     setup_load_info            the symbol table, .modinfo, __this_module;
 *                                the module's name
 *     check_modinfo              vermagic= must be this kernel's (ENOEXEC)
 *     layout_and_allocate        place each SHF_ALLOC section in the core or
 *                                the init memory, allocate both in the
 *                                module area (mm/vmalloc.c), copy them there
 *     add_unformed_module        a module of that name is loaded: EEXIST
 *     simplify_symbols           each undefined symbol must be exported by
 *                                the kernel or a loaded module (ENOENT);
 *                                every symbol's value becomes an address
 *     apply_relocations          patch code and data with those addresses
 *                                (relocate.c)
 *     complete_formation         no duplicate exports; text read-only and
 *                                executable, everything else no-execute
 *     do_init_module             call the module's init; free the init
 *                                memory; the module is live
 *
 *   delete_module                find it by name; refuse while other
 *                                modules use it or it holds references
 *                                (EAGAIN), or if it cannot be removed
 *                                (EBUSY); call its exit; free it
 *
 * Every failure gives back everything taken so far: a bad .ko costs no
 * memory. One CPU and no preemption make the module list safe without a
 * lock: it changes only in the calls of this file, and the only place a
 * load can sleep is inside the module's init, when the new module is in
 * the list as COMING (delete_module says EBUSY, a second load EEXIST).
 *
 * Differences from Linux 6.1: no module parameters (every option given is
 * "unknown" and ignored with Linux's warning); no signature checking, no
 * modversions (__versions is ignored), no compressed files (EOPNOTSUPP,
 * as a kernel without CONFIG_MODULE_DECOMPRESS); no forced unload
 * (rmmod -f is refused like a normal one, as without
 * CONFIG_MODULE_FORCE_UNLOAD); per-CPU data, jump labels, alternatives,
 * exception tables and other special sections that only Linux's build
 * makes are not recognised (their contents are loaded as plain data).
 */
#include <cred.h>
#include <fs.h>
#include <mm.h>
#include <sched.h>
#include <uaccess.h>
#include <vmalloc.h>

#include "internal.h"

/* finit_module flags (include/uapi/linux/module.h). */
#define MODULE_INIT_IGNORE_MODVERSIONS 1
#define MODULE_INIT_IGNORE_VERMAGIC 2
#define MODULE_INIT_COMPRESSED_FILE 4

/* What Linux's scripts/sign-file appends after a signed module. */
#define MODULE_SIG_STRING "~Module signature appended~\n"

/* The largest module file finit_module reads (Linux: INT_MAX). */
#define MODULE_MAX_FILE (64UL << 20)

struct module *modules;
unsigned long tainted_mask;

/* A module's state, for code that wants to call into it. */
static bool module_is_live(const struct module *mod)
{
	return mod->state != MODULE_STATE_GOING;
}

/* Loading and unloading need CAP_SYS_MODULE (root has it). */
static int may_init_module(void)
{
	return capable(CAP_SYS_MODULE) ? 0 : -EPERM;
}

/* ---- reference counts ------------------------------------------------- */

bool try_module_get(struct module *mod)
{
	if (!mod)
		return true;
	if (!module_is_live(mod))
		return false;
	mod->refcnt++;
	return true;
}

void __module_get(struct module *mod)
{
	if (mod)
		mod->refcnt++;
}

void module_put(struct module *mod)
{
	if (mod) {
		BUG_ON(mod->refcnt <= 0);
		mod->refcnt--;
	}
}

int module_refcount(struct module *mod)
{
	return mod->refcnt;
}

/* ---- the list ----------------------------------------------------------- */

/* The module called name, however far it is in loading, or NULL. */
static struct module *find_module_all(const char *name)
{
	for (struct module *mod = modules; mod; mod = mod->next)
		if (strcmp(mod->name, name) == 0)
			return mod;
	return NULL;
}

static void list_del_module(struct module *mod)
{
	for (struct module **pp = &modules; *pp; pp = &(*pp)->next) {
		if (*pp == mod) {
			*pp = mod->next;
			return;
		}
	}
}

void module_taint_letters(const struct module *mod, char *buf)
{
	char *p = buf;

	if (mod->taints & (1UL << TAINT_PROPRIETARY_MODULE))
		*p++ = 'P';
	if (mod->taints & (1UL << TAINT_OOT_MODULE))
		*p++ = 'O';
	if (mod->taints & (1UL << TAINT_FORCED_MODULE))
		*p++ = 'F';
	*p = '\0';
}

static void add_taint_module(struct module *mod, int flag)
{
	mod->taints |= 1UL << flag;
	tainted_mask |= 1UL << flag;
}

/* ---- module uses: "source needs symbols of target" ------------------- */

static bool already_uses(struct module *source, struct module *target)
{
	for (struct module_use *u = source->target_list; u; u = u->next_target)
		if (u->target == target)
			return true;
	return false;
}

/*
 * Record that source uses target, holding a reference on target, so that
 * target cannot go before source. -ENOENT if target is going away,
 * -EBUSY if it is still in its init (Linux's strong_try_module_get).
 */
static int ref_module(struct module *source, struct module *target)
{
	struct module_use *use;

	if (!target || already_uses(source, target))
		return 0;
	if (target->state == MODULE_STATE_COMING)
		return -EBUSY;
	if (!try_module_get(target))
		return -ENOENT;
	use = kmalloc(sizeof(*use));
	if (!use) {
		module_put(target);
		return -ENOMEM;
	}
	use->source = source;
	use->target = target;
	use->next_source = target->source_list;
	target->source_list = use;
	use->next_target = source->target_list;
	source->target_list = use;
	return 0;
}

/* Drop every use mod has of other modules (it is going away). */
static void module_unload_free(struct module *mod)
{
	while (mod->target_list) {
		struct module_use *use = mod->target_list;
		struct module *target = use->target;

		mod->target_list = use->next_target;
		for (struct module_use **pp = &target->source_list; *pp; pp = &(*pp)->next_source) {
			if (*pp == use) {
				*pp = use->next_source;
				break;
			}
		}
		module_put(target);
		kfree(use);
	}
}

/* ---- reading the .ko -------------------------------------------------- */

/*
 * A signed module ends with its signature, a struct module_signature (its
 * last 4 bytes: the signature's length, big-endian) and the marker. Cut
 * all of it off; this kernel has no keys to check it with (as Linux
 * without CONFIG_MODULE_SIG_FORCE loads an unverified module).
 */
static int module_sig_check(struct load_info *info, int flags)
{
	const size_t markerlen = sizeof(MODULE_SIG_STRING) - 1;
	const size_t sig_info_len = 12; /* struct module_signature */
	const unsigned char *p;
	uint32_t sig_len;

	if (flags & (MODULE_INIT_IGNORE_MODVERSIONS | MODULE_INIT_IGNORE_VERMAGIC))
		return 0; /* Linux: a mangled module counts as unsigned */
	if (info->len <= markerlen ||
	    memcmp((char *)info->hdr + info->len - markerlen, MODULE_SIG_STRING, markerlen))
		return 0;
	info->len -= markerlen;
	if (info->len < sig_info_len)
		return -EBADMSG;
	p = (unsigned char *)info->hdr + info->len - 4;
	sig_len = (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	if (sig_len >= info->len - sig_info_len)
		return -EBADMSG;
	info->len -= sig_info_len + sig_len;
	return 0;
}

/* A section's bytes lie inside the file (NOBITS sections have none). */
static bool section_in_file(const struct load_info *info, const Elf64_Shdr *s)
{
	if (s->sh_type == SHT_NOBITS)
		return true;
	return s->sh_offset <= info->len && s->sh_size <= info->len - s->sh_offset;
}

/* The SHF_ALLOC section called name, or 0 (Linux's find_sec). */
static unsigned int find_sec(const struct load_info *info, const char *name)
{
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];

		if ((s->sh_flags & SHF_ALLOC) && strcmp(info->secstrings + s->sh_name, name) == 0)
			return i;
	}
	return 0;
}

/*
 * Check the ELF headers before anything else trusts them: every offset
 * and size must stay inside the file, every string table must end with a
 * NUL, and there must be exactly one symbol table and one
 * .gnu.linkonce.this_module of this kernel's struct module size. Anything
 * else is not a module of ours: ENOEXEC.
 */
/* The ELF header, the section table, the section names and section 0. */
static int elf_check_headers(struct load_info *info)
{
	Elf64_Ehdr *hdr = info->hdr;
	const Elf64_Shdr *strhdr;

	if (info->len < sizeof(*hdr)) {
		pr_err("Invalid ELF header len %lu\n", info->len);
		return -ENOEXEC;
	}
	if (memcmp(hdr->e_ident, ELFMAG, SELFMAG) || hdr->e_ident[EI_CLASS] != ELFCLASS64 ||
	    hdr->e_ident[EI_DATA] != ELFDATA2LSB || hdr->e_type != ET_REL ||
	    hdr->e_machine != EM_X86_64 || hdr->e_shentsize != sizeof(Elf64_Shdr)) {
		pr_err("Invalid ELF header magic, type, machine or section size\n");
		return -ENOEXEC;
	}
	if (hdr->e_shoff >= info->len ||
	    (uint64_t)hdr->e_shnum * sizeof(Elf64_Shdr) > info->len - hdr->e_shoff ||
	    hdr->e_shoff % 8) {
		pr_err("Invalid ELF section header overflow\n");
		return -ENOEXEC;
	}
	info->sechdrs = (Elf64_Shdr *)((char *)hdr + hdr->e_shoff);
	if (hdr->e_shstrndx == SHN_UNDEF || hdr->e_shstrndx >= hdr->e_shnum) {
		pr_err("Invalid ELF section name index: %d\n", hdr->e_shstrndx);
		return -ENOEXEC;
	}
	strhdr = &info->sechdrs[hdr->e_shstrndx];
	if (!section_in_file(info, strhdr) || strhdr->sh_type == SHT_NOBITS || strhdr->sh_size == 0) {
		pr_err("Invalid ELF section name table\n");
		return -ENOEXEC;
	}
	info->secstrings = (char *)hdr + strhdr->sh_offset;
	if (info->secstrings[strhdr->sh_size - 1] != '\0') {
		pr_err("ELF Spec violation: section name table isn't null terminated\n");
		return -ENOEXEC;
	}
	if (info->sechdrs[0].sh_type != SHT_NULL || info->sechdrs[0].sh_size != 0 ||
	    info->sechdrs[0].sh_addr != 0) {
		pr_err("ELF Spec violation: section 0 type(%d)!=SH_NULL or non-zero len or addr\n",
		       info->sechdrs[0].sh_type);
		return -ENOEXEC;
	}
	return 0;
}

/* The symbol table, section i, and its string table. */
static int elf_check_symtab(struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *s = &info->sechdrs[i], *str;
	char *base = (char *)info->hdr;

	info->index.sym = i;
	if (s->sh_link == SHN_UNDEF || s->sh_link >= info->hdr->e_shnum || s->sh_size % sizeof(Elf64_Sym))
		return -ENOEXEC;
	str = &info->sechdrs[s->sh_link];
	if (str->sh_type != SHT_STRTAB || !section_in_file(info, str) || str->sh_size == 0 ||
	    base[str->sh_offset + str->sh_size - 1] != '\0') {
		pr_err("Invalid ELF symbol string table\n");
		return -ENOEXEC;
	}
	info->index.str = s->sh_link;
	info->strtab = base + str->sh_offset;
	return 0;
}

static int elf_validity_check(struct load_info *info)
{
	Elf64_Ehdr *hdr = info->hdr;
	const Elf64_Shdr *strhdr;
	unsigned int num_sym = 0, num_mod = 0;
	int err = elf_check_headers(info);

	if (err)
		return err;
	strhdr = &info->sechdrs[hdr->e_shstrndx];
	for (unsigned int i = 1; i < hdr->e_shnum; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];

		if (s->sh_type == SHT_NULL)
			continue;
		if (!section_in_file(info, s) || s->sh_name >= strhdr->sh_size) {
			pr_err("Invalid ELF section in module (section %u type %u)\n", i, s->sh_type);
			return -ENOEXEC;
		}
		/* (every size that can be loaded fits in the module area, every
		 * alignment is a power of two no larger than a page) */
		if (s->sh_addralign > PAGE_SIZE || (s->sh_addralign & (s->sh_addralign - 1)) ||
		    ((s->sh_flags & SHF_ALLOC) && s->sh_size > MODULES_LEN / 4)) {
			pr_err("Invalid ELF section size or alignment in module (section %u)\n", i);
			return -ENOEXEC;
		}
		if (s->sh_type == SHT_SYMTAB) {
			num_sym++;
			if (elf_check_symtab(info, i))
				return -ENOEXEC;
		}
		if ((s->sh_type == SHT_RELA || s->sh_type == SHT_REL) &&
		    (s->sh_info >= hdr->e_shnum ||
		     s->sh_size % (s->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : 16))) {
			pr_err("Invalid ELF relocation section %u\n", i);
			return -ENOEXEC;
		}
		if ((s->sh_flags & SHF_ALLOC) &&
		    strcmp(info->secstrings + s->sh_name, ".gnu.linkonce.this_module") == 0) {
			num_mod++;
			info->index.mod = i;
		}
	}
	if (num_sym != 1) {
		pr_warn("module has %s symbol table\n", num_sym ? "more than one" : "no");
		return -ENOEXEC;
	}
	/* Every relocation section must use that one symbol table. */
	for (unsigned int i = 1; i < hdr->e_shnum; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];

		if ((s->sh_type == SHT_RELA || s->sh_type == SHT_REL) && s->sh_link != info->index.sym)
			return -ENOEXEC;
	}
	if (num_mod != 1) {
		pr_err("module: Exactly one .gnu.linkonce.this_module section must exist.\n");
		return -ENOEXEC;
	}
	/* (the loader writes to it: it must be data) */
	if (info->sechdrs[info->index.mod].sh_type == SHT_NOBITS ||
	    !(info->sechdrs[info->index.mod].sh_flags & SHF_WRITE) ||
	    info->sechdrs[info->index.mod].sh_size != sizeof(struct module)) {
		pr_err("module: .gnu.linkonce.this_module section size must match the kernel's built struct module size at run time\n");
		return -ENOEXEC;
	}
	return 0;
}

/* The next "tag=value" string of .modinfo after prev (NULL: the first)
 * whose tag is tag; its value, or NULL. The section was checked to end
 * inside the file; strings are bounded by it. */
static char *get_next_modinfo(const struct load_info *info, const char *tag, char *prev)
{
	const Elf64_Shdr *s = &info->sechdrs[info->index.info];
	char *start = (char *)info->hdr + s->sh_offset, *end = start + s->sh_size;
	size_t taglen = strlen(tag);
	char *p = start;

	if (!info->index.info)
		return NULL;
	if (prev) { /* continue after the string holding prev */
		p = prev;
		while (p < end && *p)
			p++;
	}
	while (p < end) {
		char *str;

		while (p < end && !*p)
			p++;
		str = p;
		while (p < end && *p)
			p++;
		if (p == end)
			break; /* not NUL-terminated: ignored */
		if ((size_t)(p - str) > taglen && strncmp(str, tag, taglen) == 0 && str[taglen] == '=')
			return str + taglen + 1;
	}
	return NULL;
}

static char *get_modinfo(const struct load_info *info, const char *tag)
{
	return get_next_modinfo(info, tag, NULL);
}

static int setup_load_info(struct load_info *info)
{
	info->index.info = find_sec(info, ".modinfo");
	if (info->index.info)
		info->name = get_modinfo(info, "name");
	info->mod = (struct module *)((char *)info->hdr + info->sechdrs[info->index.mod].sh_offset);
	if (strnlen(info->mod->name, MODULE_NAME_LEN) == MODULE_NAME_LEN) {
		pr_err("module: its name is not terminated\n");
		return -ENOEXEC;
	}
	if (!info->name)
		info->name = info->mod->name;
	/* Not loaded into memory: .modinfo is read here and now. */
	if (info->index.info)
		info->sechdrs[info->index.info].sh_flags &= ~(uint64_t)SHF_ALLOC;
	info->index.ksymtab = find_sec(info, "__ksymtab");
	info->index.ksymtab_gpl = find_sec(info, "__ksymtab_gpl");
	return 0;
}

/* The licenses Linux treats as GPL-compatible (license_is_gpl_compatible). */
static bool license_is_gpl_compatible(const char *license)
{
	static const char *const ok[] = {
		"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
		"Dual MIT/GPL", "Dual MPL/GPL",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (strcmp(license, ok[i]) == 0)
			return true;
	return false;
}

static int check_modinfo(struct module *mod, struct load_info *info, int flags)
{
	const char *modmagic = get_modinfo(info, "vermagic");
	const char *license = get_modinfo(info, "license");

	if (flags & MODULE_INIT_IGNORE_VERMAGIC)
		modmagic = NULL;
	if (!modmagic) {
		/* Linux with CONFIG_MODULE_FORCE_LOAD: loaded, but tainted. */
		pr_warn("%s: %s: kernel tainted.\n", info->name, "bad vermagic");
		add_taint_module(mod, TAINT_FORCED_MODULE);
	} else if (strcmp(modmagic, VERMAGIC_STRING) != 0) {
		pr_err("%s: version magic '%s' should be '%s'\n", info->name, modmagic, VERMAGIC_STRING);
		return -ENOEXEC;
	}
	if (!get_modinfo(info, "intree")) {
		pr_warn("%s: loading out-of-tree module taints kernel.\n", info->name);
		add_taint_module(mod, TAINT_OOT_MODULE);
	}
	if (!license)
		license = "unspecified";
	if (!license_is_gpl_compatible(license)) {
		pr_warn("%s: module license '%s' taints kernel.\n", info->name, license);
		add_taint_module(mod, TAINT_PROPRIETARY_MODULE);
	}
	return 0;
}

/* ---- placing the sections --------------------------------------------- */

static bool strstarts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * Give every SHF_ALLOC section an offset in the core or the init layout,
 * in four groups: code, read-only data, (unused here: read-only after
 * init), writable data, each group starting on a page, so that each can
 * get its own rights. Sections whose name starts with ".init" go to the
 * init layout, freed once the module's init has run.
 */
static int layout_sections(struct module *mod, struct load_info *info)
{
	static const uint64_t masks[][2] = {
		/* { flags it must have, flags it must not have } */
		{ SHF_EXECINSTR | SHF_ALLOC, 0 },
		{ SHF_ALLOC, SHF_WRITE | SHF_EXECINSTR },
		{ SHF_WRITE | SHF_ALLOC, SHF_EXECINSTR },
	};
	unsigned int n = info->hdr->e_shnum;

	for (unsigned int i = 0; i < n; i++)
		info->sec_offset[i] = ~0UL;
	for (int init = 0; init <= 1; init++) {
		struct module_layout *l = init ? &mod->init_layout : &mod->core_layout;
		uint64_t size = 0; /* (each section is at most MODULES_LEN / 4) */

		for (size_t m = 0; m < ARRAY_SIZE(masks); m++) {
			for (unsigned int i = 1; i < n; i++) {
				Elf64_Shdr *s = &info->sechdrs[i];
				const char *sname = info->secstrings + s->sh_name;
				uint64_t align = s->sh_addralign ? s->sh_addralign : 1;

				if ((s->sh_flags & masks[m][0]) != masks[m][0] ||
				    (s->sh_flags & masks[m][1]) || info->sec_offset[i] != ~0UL ||
				    strstarts(sname, ".init") != init)
					continue;
				info->sec_offset[i] = ALIGN_UP(size, align);
				info->sec_init[i] = init;
				size = info->sec_offset[i] + s->sh_size;
				if (size > MODULES_LEN / 2)
					return -ENOMEM;
			}
			size = ALIGN_UP(size, PAGE_SIZE);
			if (m == 0)
				l->text_size = size;
			else if (m == 1)
				l->ro_size = size;
		}
		l->size = size;
	}
	return 0;
}

/*
 * Lay out, allocate, and copy the sections into their places; from here
 * on each section's sh_addr is its final address, and info->mod points to
 * __this_module in the module's memory.
 */
static struct module *layout_and_allocate(struct load_info *info, int flags)
{
	struct module tmp;
	int err;

	/* The layout is worked out in a copy of struct module; the real one is
	 * in the data that is about to be copied. */
	memset(&tmp, 0, sizeof(tmp));
	err = check_modinfo(&tmp, info, flags);
	if (err)
		return ERR_PTR(err);
	err = layout_sections(&tmp, info);
	if (err)
		return ERR_PTR(err);
	tmp.core_layout.base = module_alloc(tmp.core_layout.size);
	if (!tmp.core_layout.base)
		return ERR_PTR(-ENOMEM);
	if (tmp.init_layout.size) {
		tmp.init_layout.base = module_alloc(tmp.init_layout.size);
		if (!tmp.init_layout.base) {
			module_memfree(tmp.core_layout.base);
			return ERR_PTR(-ENOMEM);
		}
	}
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
		Elf64_Shdr *s = &info->sechdrs[i];
		char *dest;

		if (info->sec_offset[i] == ~0UL)
			continue;
		dest = (char *)(info->sec_init[i] ? tmp.init_layout.base : tmp.core_layout.base) +
		       info->sec_offset[i];
		if (s->sh_type != SHT_NOBITS)
			memcpy(dest, (char *)info->hdr + s->sh_offset, s->sh_size);
		/* (vmalloc'd memory is zeroed: NOBITS sections are .bss) */
		s->sh_addr = (uint64_t)dest;
	}
	info->mod = (struct module *)info->sechdrs[info->index.mod].sh_addr;
	info->mod->state = MODULE_STATE_UNFORMED;
	info->mod->next = NULL;
	info->mod->refcnt = 0;
	info->mod->source_list = info->mod->target_list = NULL;
	info->mod->core_layout = tmp.core_layout;
	info->mod->init_layout = tmp.init_layout;
	info->mod->taints = tmp.taints;
	memset(&info->mod->kallsyms, 0, sizeof(info->mod->kallsyms));
	info->mod->args = NULL;
	return info->mod;
}

static void free_module_memory(struct module *mod)
{
	void *init = mod->init_layout.base, *core = mod->core_layout.base;

	/* mod itself lives in the core memory: read it all first. */
	module_memfree(init);
	module_memfree(core);
}

/* Add the module to the list, unless one of the same name is there. */
static int add_unformed_module(struct module *mod)
{
	if (find_module_all(mod->name))
		return -EEXIST;
	mod->next = modules;
	modules = mod;
	return 0;
}

/* ---- linking ------------------------------------------------------------ */

/*
 * Resolve the undefined symbols, and turn every defined symbol's value
 * from an offset in its section into an address. Every unknown symbol is
 * logged before the load fails, as Linux does.
 */
static int simplify_symbols(struct module *mod, const struct load_info *info)
{
	const Elf64_Shdr *symsec = &info->sechdrs[info->index.sym];
	const Elf64_Shdr *strsec = &info->sechdrs[info->index.str];
	Elf64_Sym *sym = (Elf64_Sym *)((char *)info->hdr + symsec->sh_offset);
	unsigned int num = symsec->sh_size / sizeof(Elf64_Sym);
	bool gpl_ok = !(mod->taints & (1UL << TAINT_PROPRIETARY_MODULE));
	int ret = 0;

	for (unsigned int i = 1; i < num; i++) {
		const char *name;
		const struct kernel_symbol *ksym;
		struct module *owner;
		int err;

		if (sym[i].st_name >= strsec->sh_size)
			return -ENOEXEC;
		name = info->strtab + sym[i].st_name;
		switch (sym[i].st_shndx) {
		case SHN_COMMON:
			pr_warn("%s: please compile with -fno-common\n", mod->name);
			ret = -ENOEXEC;
			break;
		case SHN_ABS:
			break;
		case SHN_UNDEF:
			ksym = find_symbol(name, gpl_ok, &owner);
			if (ksym) {
				err = ref_module(mod, owner);
				if (err) {
					pr_warn("%s: Unknown symbol %s (err %d)\n", mod->name, name, err);
					ret = err;
					break;
				}
				sym[i].st_value = ksym->value;
				break;
			}
			/* A weak one may stay 0; GNU as before 2.37 adds an
			 * unused _GLOBAL_OFFSET_TABLE_ (Linux ignores it too). */
			if (ELF64_ST_BIND(sym[i].st_info) == STB_WEAK ||
			    strcmp(name, "_GLOBAL_OFFSET_TABLE_") == 0)
				break;
			ret = -ENOENT;
			pr_warn("%s: Unknown symbol %s (err %d)\n", mod->name, name, ret);
			break;
		default:
			if (sym[i].st_shndx >= info->hdr->e_shnum)
				return -ENOEXEC; /* SHN_XINDEX and other special indexes */
			sym[i].st_value += info->sechdrs[sym[i].st_shndx].sh_addr;
			break;
		}
	}
	return ret;
}

/* Apply every relocation section that targets a section in memory. */
static int apply_relocations(struct module *mod, struct load_info *info)
{
	for (unsigned int i = 1; i < info->hdr->e_shnum; i++) {
		unsigned int target = info->sechdrs[i].sh_info;
		int err;

		if (info->sechdrs[i].sh_type != SHT_RELA && info->sechdrs[i].sh_type != SHT_REL)
			continue;
		if (target == 0 || info->sec_offset[target] == ~0UL)
			continue; /* debug information and such: not loaded */
		if (info->sechdrs[i].sh_type == SHT_REL) {
			pr_err("module %s: REL relocation unsupported\n", mod->name);
			return -ENOEXEC;
		}
		err = apply_relocate_add(info, i, mod);
		if (err)
			return err;
	}
	return 0;
}

/* The tables of symbols the module exports, now that they are relocated. */
static int find_module_sections(struct module *mod, const struct load_info *info)
{
	const Elf64_Shdr *s;

	if (info->index.ksymtab) {
		s = &info->sechdrs[info->index.ksymtab];
		if (s->sh_size % sizeof(struct kernel_symbol) || info->sec_init[info->index.ksymtab])
			return -ENOEXEC;
		mod->syms = (const struct kernel_symbol *)s->sh_addr;
		mod->num_syms = s->sh_size / sizeof(struct kernel_symbol);
	}
	if (info->index.ksymtab_gpl) {
		s = &info->sechdrs[info->index.ksymtab_gpl];
		if (s->sh_size % sizeof(struct kernel_symbol) || info->sec_init[info->index.ksymtab_gpl])
			return -ENOEXEC;
		mod->gpl_syms = (const struct kernel_symbol *)s->sh_addr;
		mod->num_gpl_syms = s->sh_size / sizeof(struct kernel_symbol);
	}
	return 0;
}

/* A string that lies whole in the module's core memory. */
static bool module_string_ok(const struct module *mod, const char *str)
{
	const char *base = mod->core_layout.base, *end = base + mod->core_layout.size;

	return str >= base && str < end && strnlen(str, end - str) < (size_t)(end - str);
}

/* Two modules may not export the same name, nor a module a kernel symbol. */
static int verify_exported_symbols(struct module *mod)
{
	const struct { const struct kernel_symbol *syms; unsigned int num; } tabs[] = {
		{ mod->syms, mod->num_syms }, { mod->gpl_syms, mod->num_gpl_syms },
	};

	for (size_t t = 0; t < ARRAY_SIZE(tabs); t++) {
		for (unsigned int i = 0; i < tabs[t].num; i++) {
			struct module *owner;
			const char *name = tabs[t].syms[i].name;

			if (!module_string_ok(mod, name))
				return -ENOEXEC;
			if (find_symbol(name, true, &owner) && owner != mod) {
				pr_err("%s: exports duplicate symbol %s (owned by %s)\n", mod->name, name,
				       owner ? owner->name : "kernel");
				return -ENOEXEC;
			}
		}
	}
	return 0;
}

/* W^X: code read-only and executable, read-only data read-only, the rest
 * (data, bss) writable; nothing but code executable. */
static void module_enable_protections(const struct module_layout *l)
{
	unsigned long base = (unsigned long)l->base;

	if (!base)
		return;
	set_memory_ro(base, l->ro_size / PAGE_SIZE);
	set_memory_x(base, l->text_size / PAGE_SIZE);
}

static int complete_formation(struct module *mod)
{
	int err = verify_exported_symbols(mod);

	if (err)
		return err;
	module_enable_protections(&mod->core_layout);
	module_enable_protections(&mod->init_layout);
	mod->state = MODULE_STATE_COMING;
	return 0;
}

/*
 * The options given to insmod. There are no module parameters here, so
 * each is unknown: Linux 6.1 warns and ignores it.
 */
static int parse_args(struct module *mod, const char __user *uargs)
{
	long len = strnlen_user(uargs, PAGE_SIZE * 16);
	char *p;

	if (len <= 0)
		return -EFAULT;
	if (len > (long)PAGE_SIZE * 16)
		return -ENOMEM; /* (Linux takes any length) */
	mod->args = kmalloc(len);
	if (!mod->args)
		return -ENOMEM;
	if (copy_from_user(mod->args, uargs, len))
		return -EFAULT;
	mod->args[len - 1] = '\0';
	for (p = mod->args; *p;) {
		char *word;
		size_t n;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		word = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		n = p - word;
		if (n) {
			int plen = 0;

			while ((size_t)plen < n && word[plen] != '=')
				plen++;

			pr_warn("%s: unknown parameter '%.*s' ignored\n", mod->name, plen, word);
		}
	}
	return 0;
}

/* Unlink a module from everything and free it. */
static void free_module(struct module *mod)
{
	list_del_module(mod);
	module_unload_free(mod);
	module_free_kallsyms(mod);
	kfree(mod->args);
	free_module_memory(mod);
}

/* Run the module's init. On success its init memory goes and it is live. */
static int do_init_module(struct module *mod)
{
	int ret = 0;

	/* A reference while init runs: nothing may unload it meanwhile. */
	mod->refcnt++;
	if (mod->init)
		ret = mod->init();
	mod->refcnt--;
	if (ret < 0) {
		mod->state = MODULE_STATE_GOING;
		free_module(mod);
		return ret;
	}
	if (ret > 0)
		pr_warn("%s: '%s'->init suspiciously returned %d, it should follow 0/-E convention\n",
			mod->name, mod->name, ret);
	mod->state = MODULE_STATE_LIVE;
	module_memfree(mod->init_layout.base);
	mod->init_layout.base = NULL;
	mod->init_layout.size = mod->init_layout.text_size = mod->init_layout.ro_size = 0;
	return 0;
}

static int load_module(struct load_info *info, const char __user *uargs, int flags)
{
	struct module *mod;
	int err;

	err = module_sig_check(info, flags);
	if (err)
		return err;
	err = elf_validity_check(info);
	if (err)
		return err;
	err = setup_load_info(info);
	if (err)
		return err;

	info->sec_offset = kmalloc(info->hdr->e_shnum * sizeof(*info->sec_offset));
	info->sec_init = kzalloc(info->hdr->e_shnum * sizeof(*info->sec_init));
	err = -ENOMEM;
	if (!info->sec_offset || !info->sec_init)
		goto out;
	mod = layout_and_allocate(info, flags);
	if (IS_ERR(mod)) {
		err = PTR_ERR(mod);
		goto out;
	}
	err = add_unformed_module(mod);
	if (err) {
		free_module_memory(mod);
		goto out;
	}

	err = simplify_symbols(mod, info);
	if (!err)
		err = apply_relocations(mod, info);
	if (!err)
		err = find_module_sections(mod, info);
	if (!err)
		err = module_keep_kallsyms(mod, info);
	if (!err)
		err = parse_args(mod, uargs);
	if (!err)
		err = complete_formation(mod);
	if (err) {
		free_module(mod);
		goto out;
	}
	err = do_init_module(mod);
out:
	kfree(info->sec_offset);
	kfree(info->sec_init);
	return err;
}

/* ---- the system calls ---------------------------------------------------- */

long sys_init_module(void __user *umod, unsigned long len, const char __user *uargs)
{
	struct load_info info = { 0 };
	int err = may_init_module();

	if (err)
		return err;
	if (len < sizeof(Elf64_Ehdr))
		return -ENOEXEC;
	if (len > MODULES_LEN)
		return -ENOMEM;
	info.hdr = vmalloc(len);
	if (!info.hdr)
		return -ENOMEM;
	info.len = len;
	if (copy_from_user(info.hdr, umod, len))
		err = -EFAULT;
	else
		err = load_module(&info, uargs, 0);
	vfree(info.hdr);
	return err;
}

long sys_finit_module(int fd, const char __user *uargs, int flags)
{
	struct load_info info = { 0 };
	void *buf;
	ssize_t len;
	int err = may_init_module();

	if (err)
		return err;
	if (flags & ~(MODULE_INIT_IGNORE_MODVERSIONS | MODULE_INIT_IGNORE_VERMAGIC |
		      MODULE_INIT_COMPRESSED_FILE))
		return -EINVAL;
	len = kernel_read_file_from_fd(fd, &buf, MODULE_MAX_FILE);
	if (len < 0)
		return len;
	if (flags & MODULE_INIT_COMPRESSED_FILE) {
		/* As Linux without CONFIG_MODULE_DECOMPRESS. */
		vfree(buf);
		return -EOPNOTSUPP;
	}
	info.hdr = buf;
	info.len = len;
	err = load_module(&info, uargs, flags);
	vfree(buf);
	return err;
}

long sys_delete_module(const char __user *name_user, unsigned int flags)
{
	char name[MODULE_NAME_LEN];
	struct module *mod;
	long len;

	(void)flags; /* O_NONBLOCK is the only way since Linux 3.13; O_TRUNC
		      * (rmmod -f) would force: not done here */
	if (may_init_module())
		return -EPERM;
	len = strncpy_from_user(name, name_user, MODULE_NAME_LEN - 1);
	if (len < 0 && len != -ENAMETOOLONG)
		return -EFAULT;
	name[MODULE_NAME_LEN - 1] = '\0';

	mod = find_module_all(name);
	if (!mod || mod->state == MODULE_STATE_UNFORMED)
		return -ENOENT;
	if (mod->source_list)
		return -EAGAIN; /* other modules use it: they go first */
	if (mod->state != MODULE_STATE_LIVE)
		return -EBUSY; /* still in its init, or already going */
	if (mod->init && !mod->exit)
		return -EBUSY; /* can never be removed: "[permanent]" */
	if (module_refcount(mod) != 0)
		return -EAGAIN; /* in use (Linux's EWOULDBLOCK) */

	mod->state = MODULE_STATE_GOING;
	if (mod->exit)
		mod->exit();
	free_module(mod);
	return 0;
}
