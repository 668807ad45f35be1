/*
 * fs_context.c - the parameters of a filesystem being set up
 * (fs/fs_context.h; Linux: fs/fs_context.c, fs/fs_parser.c and each
 * type's parse_param): what fsconfig(2) gives one at a time, and what
 * mount(2)'s data gives as "key=value,key" for proc.
 *
 * The order of the checks is Linux's vfs_parse_fs_param: the words every
 * type takes (ro, rw, sync...), then the type's own, then "source", else
 * "Unknown parameter". The messages are Linux's, kept for read(2).
 */
#include "fs_context.h"
#include <mm.h>
#include <stdarg.h>

#define MS_RDONLY 1
#define MS_SYNCHRONOUS 16
#define MS_MANDLOCK 64
#define MS_DIRSYNC 128
#define MS_LAZYTIME (1 << 25)

struct fs_context *fs_context_for_mount(const char *name)
{
	struct fs_context *fc;
	struct file_system_type *type = NULL;

	if (strcmp(name, "proc") && strcmp(name, "tmpfs") && strcmp(name, "ramfs") &&
	    !(type = get_fs_type(name)))
		return ERR_PTR(-ENODEV);
	fc = kzalloc(sizeof(*fc));
	if (fc && !(fc->fs_name = strdup_k(name))) {
		kfree(fc);
		fc = NULL;
	}
	if (!fc) {
		if (type)
			put_filesystem(type);
		return ERR_PTR(-ENOMEM);
	}
	fc->fs_type = type;
	return fc;
}

struct fs_context *fs_context_for_reconfigure(struct dentry *root)
{
	struct fs_context *fc = kzalloc(sizeof(*fc));

	if (fc && !(fc->fs_name = strdup_k(root->d_sb->s_type))) {
		kfree(fc);
		fc = NULL;
	}
	if (!fc)
		return ERR_PTR(-ENOMEM);
	fc->phase = FS_CONTEXT_RECONF_PARAMS;
	fc->reconf_root = igrab(root->d_sb->s_root->d_inode);
	return fc;
}

void vfs_clean_context(struct fs_context *fc)
{
	struct proc_fs_info none = { 0 };

	fc->sb_flags = fc->sb_flags_mask = 0;
	fc->mode_set = fc->uid_set = fc->gid_set = false;
	fc->proc = none;
	fc->proc_set = 0;
	kfree(fc->source);
	fc->source = NULL;
	fc->phase = FS_CONTEXT_RECONF_PARAMS;
}

void put_fs_context(struct fs_context *fc)
{
	fc_drop_sb(fc);
	if (fc->reconf_root)
		iput(fc->reconf_root);
	if (fc->fs_type)
		put_filesystem(fc->fs_type);
	for (int i = 0; i < FC_LOG_SIZE; i++)
		kfree(fc->log[i]);
	kfree(fc->source);
	kfree(fc->fs_name);
	kfree(fc);
}

void fc_log(struct fs_context *fc, char level, const char *prefix, const char *fmt, ...)
{
	char *msg = kmalloc(256);
	va_list ap;
	int n;

	if (!fc || !msg) {
		kfree(msg);
		return;
	}
	n = snprintf(msg, 256, "%c %s%s", level, prefix ? prefix : "", prefix ? ": " : "");
	va_start(ap, fmt);
	n += vsnprintf(msg + n, 256 - n - 1, fmt, ap);
	va_end(ap);
	n = MIN(n, 256 - 2);
	msg[n] = '\n';
	msg[n + 1] = '\0';
	if ((uint8_t)(fc->head - fc->tail) == FC_LOG_SIZE) /* full: the oldest goes */
		kfree(fc->log[fc->tail++ % FC_LOG_SIZE]);
	fc->log[fc->head++ % FC_LOG_SIZE] = msg;
}

/* Linux's fs_param_bad_value: "e TYPE: Bad value for 'KEY'". */
static int bad_value(struct fs_context *fc, struct fs_parameter *param)
{
	fc_log(fc, 'e', fc->fs_name, "Bad value for '%s'", param->key);
	return -EINVAL;
}

/* An unsigned number in base (0: by its prefix, as kstrtouint): 0 or -1. */
static int parse_uint(const char *s, unsigned int base, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;

	if (base == 0)
		base = s[0] == '0' ? ((s[1] | 0x20) == 'x' ? 16 : 8) : 10;
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	if (!*s)
		return -1;
	for (; *s && *s != '\n'; s++) {
		unsigned int d = *s >= '0' && *s <= '9' ? *s - '0' : ((*s | 0x20) >= 'a' ? (*s | 0x20) - 'a' + 10 : 99);
		if (d >= base || n > (max - d) / base)
			return -1;
		n = n * base + d;
	}
	if (*s == '\n' && s[1])
		return -1;
	*v = n;
	return 0;
}

/* fsparam_u32 / fsparam_u32oct: a string holding a number. */
static int param_u32(struct fs_context *fc, struct fs_parameter *param, unsigned int base, uint32_t *out)
{
	uint64_t v;

	if (param->type != FS_VALUE_STRING || parse_uint(param->string, base, UINT32_MAX, &v))
		return bad_value(fc, param);
	*out = (uint32_t)v;
	return 0;
}

/* ---- proc (Linux's fs/proc/root.c) ----------------------------------------- */

static int proc_parse_hidepid(struct fs_context *fc, struct fs_parameter *param)
{
	static const char *const names[] = { "off", "noaccess", "invisible", NULL, "ptraceable" };
	uint64_t v;

	if (param->type != FS_VALUE_STRING || !*param->string)
		return bad_value(fc, param);
	if (!parse_uint(param->string, 0, UINT32_MAX, &v)) {
		if (v != HIDEPID_OFF && v != HIDEPID_NO_ACCESS && v != HIDEPID_INVISIBLE &&
		    v != HIDEPID_NOT_PTRACEABLE)
			goto unknown;
		fc->proc.hide_pid = (int)v;
		fc->proc_set |= PROC_SET_HIDEPID;
		return 0;
	}
	for (int i = 0; i < 5; i++) {
		if (names[i] && !strcmp(param->string, names[i])) {
			fc->proc.hide_pid = i;
			fc->proc_set |= PROC_SET_HIDEPID;
			return 0;
		}
	}
unknown:
	/* Linux's format ends with a newline of its own: two in the log. */
	fc_log(fc, 'e', NULL, "proc: unknown value of hidepid - %s\n", param->string);
	return -EINVAL;
}

static int proc_parse_subset(struct fs_context *fc, struct fs_parameter *param)
{
	char *value = param->string;

	if (param->type != FS_VALUE_STRING || !*value)
		return bad_value(fc, param);
	while (value) {
		char *next = strchr(value, ',');
		if (next)
			*next++ = '\0';
		if (*value && strcmp(value, "pid")) {
			fc_log(fc, 'e', NULL, "proc: unsupported subset option - %s\n", value);
			return -EINVAL;
		}
		if (*value) {
			fc->proc.pidonly = true;
			fc->proc_set |= PROC_SET_SUBSET;
		}
		value = next;
	}
	return 0;
}

/* 0, -EINVAL, or -ENOPARAM: not one of proc's. */
static int proc_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	if (!strcmp(param->key, "gid")) {
		int err = param_u32(fc, param, 10, &fc->proc.pid_gid);
		if (!err)
			fc->proc_set |= PROC_SET_GID;
		return err;
	}
	if (!strcmp(param->key, "hidepid"))
		return proc_parse_hidepid(fc, param);
	if (!strcmp(param->key, "subset"))
		return proc_parse_subset(fc, param);
	return -ENOPARAM;
}

/* ---- tmpfs and ramfs (Linux's mm/shmem.c, fs/ramfs/inode.c) ---------------- */

/* A size with an optional k, m, g, t suffix (memparse); tmpfs's size may
 * be a percentage of memory. 0 or -1. */
static int parse_size(const char *s, bool percent_ok)
{
	uint64_t v;
	char num[32];
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9' && n < sizeof(num) - 1) {
		num[n] = s[n];
		n++;
	}
	num[n] = '\0';
	if (!n || parse_uint(num, 10, UINT64_MAX, &v))
		return -1;
	s += n;
	if (*s && strchr("kKmMgGtTpPeE", *s))
		s++;
	else if (*s == '%' && percent_ok)
		s++;
	return *s ? -1 : 0;
}

static int tmpfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	static const char *const flags[] = { "inode32", "inode64" };
	static const char *const sizes[] = { "size", "nr_blocks", "nr_inodes", "huge", "mpol" };
	static const char *const huge[] = { "never", "always", "within_size", "advise" };
	const char *k = param->key;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		if (strcmp(k, flags[i]))
			continue;
		if (param->type != FS_VALUE_FLAG) {
			fc_log(fc, 'e', fc->fs_name, "Unexpected value for '%s'", k);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(k, "mode") && !param_u32(fc, param, 8, &fc->mode))
		return fc->mode &= 07777, fc->mode_set = true, 0;
	if (!strcmp(k, "uid") && !param_u32(fc, param, 10, &fc->uid))
		return fc->uid_set = true, 0;
	if (!strcmp(k, "gid") && !param_u32(fc, param, 10, &fc->gid))
		return fc->gid_set = true, 0;
	if (!strcmp(k, "mode") || !strcmp(k, "uid") || !strcmp(k, "gid"))
		return -EINVAL; /* param_u32 logged it */
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (strcmp(k, sizes[i]))
			continue;
		if (param->type != FS_VALUE_STRING || !*param->string)
			return bad_value(fc, param);
		if (i == 3) {
			for (size_t j = 0; j < ARRAY_SIZE(huge); j++)
				if (!strcmp(param->string, huge[j]))
					return 0;
			return bad_value(fc, param);
		}
		if (i < 3 && parse_size(param->string, i == 0))
			return bad_value(fc, param);
		return 0;
	}
	return -ENOPARAM;
}

/* ramfs takes mode= and, as it always has, ignores everything else. */
static int ramfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	if (!strcmp(param->key, "mode")) {
		if (param_u32(fc, param, 8, &fc->mode))
			return -EINVAL;
		fc->mode &= 07777;
		fc->mode_set = true;
		return 0;
	}
	return strcmp(param->key, "source") ? 0 : -ENOPARAM;
}

/* ---- every type -------------------------------------------------------------- */

/* ro, rw, sync...: whatever their value. 0 or -ENOPARAM. */
static int parse_sb_flag(struct fs_context *fc, const char *key)
{
	static const struct { const char *name; unsigned long flag; bool set; } words[] = {
		{ "dirsync", MS_DIRSYNC, true }, { "lazytime", MS_LAZYTIME, true },
		{ "mand", MS_MANDLOCK, true }, { "ro", MS_RDONLY, true },
		{ "sync", MS_SYNCHRONOUS, true }, { "async", MS_SYNCHRONOUS, false },
		{ "nolazytime", MS_LAZYTIME, false }, { "nomand", MS_MANDLOCK, false },
		{ "rw", MS_RDONLY, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		if (strcmp(key, words[i].name))
			continue;
		fc->sb_flags_mask |= words[i].flag;
		if (words[i].set)
			fc->sb_flags |= words[i].flag;
		else
			fc->sb_flags &= ~words[i].flag;
		return 0;
	}
	return -ENOPARAM;
}

int vfs_parse_fs_param(struct fs_context *fc, struct fs_parameter *param)
{
	int err;

	if (!param->key) {
		fc_log(fc, 'e', NULL, "Unnamed parameter\n");
		return -EINVAL;
	}
	if ((err = parse_sb_flag(fc, param->key)) != -ENOPARAM)
		return err;
	if (!strcmp(fc->fs_name, "proc"))
		err = proc_parse_param(fc, param);
	else if (!strcmp(fc->fs_name, "tmpfs"))
		err = tmpfs_parse_param(fc, param);
	else if (!strcmp(fc->fs_name, "ramfs"))
		err = ramfs_parse_param(fc, param);
	if (err != -ENOPARAM)
		return err;
	if (!strcmp(param->key, "source")) {
		if (param->type != FS_VALUE_STRING) {
			fc_log(fc, 'e', NULL, "Non-string source");
			return -EINVAL;
		}
		if (fc->source) {
			fc_log(fc, 'e', NULL, "Multiple sources");
			return -EINVAL;
		}
		fc->source = strdup_k(param->string);
		return fc->source ? 0 : -ENOMEM;
	}
	fc_log(fc, 'e', NULL, "%s: Unknown parameter '%s'", fc->fs_name, param->key);
	return -EINVAL;
}

int parse_monolithic_mount_data(struct fs_context *fc, char *data)
{
	char *word = data;

	while (word && *word) {
		char *next = strchr(word, ',');
		struct fs_parameter param = { .key = word, .type = FS_VALUE_FLAG };
		int err;

		if (next)
			*next++ = '\0';
		if ((param.string = strchr(word, '='))) {
			*param.string++ = '\0';
			param.type = FS_VALUE_STRING;
			param.size = strlen(param.string);
		}
		if (*word && (err = vfs_parse_fs_param(fc, &param)))
			return err;
		word = next;
	}
	return 0;
}
