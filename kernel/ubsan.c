/*
 * ubsan.c - the kernel's own runtime for the undefined behaviour
 * sanitizer (make SANITIZE=ubsan), as Linux's lib/ubsan.c.
 *
 * With -fsanitize=undefined the compiler checks, at run time, what C
 * leaves undefined: a signed overflow, a shift by too much, an array index
 * out of its bounds, a NULL or misaligned pointer, a bool that is neither 0
 * nor 1... and on a violation calls one of the __ubsan_handle_* functions
 * below with a description of the place (file, line, column) and of the
 * types involved. A user-space program would get libubsan; the kernel
 * has this file instead, which prints Linux's report on the console:
 *
 *   ================================================================================
 *   UBSAN: shift-out-of-bounds in fs/exec.c:123:45
 *   shift exponent 64 is too large for 64-bit type 'long unsigned int'
 *   CPU: 0 PID: 7 Comm: sh Not tainted
 *   Call Trace: ...
 *   ================================================================================
 *
 * and goes on, as Linux does: a report is a bug to fix, not a crash. Each
 * place reports once. This file itself is compiled without the sanitizer.
 * The test harness fails any test whose console shows "UBSAN:".
 */
#include <kernel.h>
#include <sched.h>
#include <string.h>
#include <trap.h>

struct source_location {
	const char *file_name;
	uint32_t line;
	uint32_t column;
};

struct type_descriptor {
	uint16_t type_kind;     /* 0: integer, 1: float, 0xffff: other */
	uint16_t type_info;     /* integer: bit 0 signed, the rest log2(bits) */
	char type_name[];       /* quoted: "'int'" */
};

struct type_mismatch_data_v1 {
	struct source_location location;
	struct type_descriptor *type;
	unsigned char log_alignment;
	unsigned char type_check_kind;
};

struct overflow_data {
	struct source_location location;
	struct type_descriptor *type;
};

struct shift_out_of_bounds_data {
	struct source_location location;
	struct type_descriptor *lhs_type;
	struct type_descriptor *rhs_type;
};

struct out_of_bounds_data {
	struct source_location location;
	struct type_descriptor *array_type;
	struct type_descriptor *index_type;
};

struct unreachable_data {
	struct source_location location;
};

struct invalid_value_data {
	struct source_location location;
	struct type_descriptor *type;
};

struct nonnull_arg_data {
	struct source_location location;
	struct source_location attr_location;
	int arg_index;
};

struct nonnull_return_data {
	struct source_location attr_location;
};

struct vla_bound_data {
	struct source_location location;
	struct type_descriptor *type;
};

struct pointer_overflow_data {
	struct source_location location;
};

struct invalid_builtin_data {
	struct source_location location;
	unsigned char kind;
};

static const char *const type_check_kinds[] = {
	"load of", "store to", "reference binding to", "member access within",
	"member call on", "constructor call on", "downcast of", "downcast of",
	"upcast of", "cast to virtual base of", "_Nonnull binding to",
	"dynamic operation on",
};

int ubsan_reports; /* how many reports since boot */

/* Report each place once: the column's top bit marks it (Linux's way). */
#define REPORTED_BIT (1u << 31)

static bool suppress(struct source_location *loc)
{
	if (loc->column & REPORTED_BIT)
		return true;
	loc->column |= REPORTED_BIT;
	return false;
}

static void prologue(struct source_location *loc, const char *kind)
{
	ubsan_reports++;
	printk(KERN_ERR "================================================================================\n");
	printk(KERN_ERR "UBSAN: %s in %s:%u:%u\n", kind, loc->file_name, loc->line,
	       loc->column & ~REPORTED_BIT);
}

static void epilogue(void)
{
	dump_stack_lvl(KERN_ERR);
	printk(KERN_ERR "================================================================================\n");
}

static bool type_is_int(const struct type_descriptor *t) { return t->type_kind == 0; }
static bool type_is_signed(const struct type_descriptor *t) { return type_is_int(t) && (t->type_info & 1); }
static unsigned type_bit_width(const struct type_descriptor *t) { return 1u << (t->type_info >> 1); }

/* A value as the compiler passes it: inline if it fits in 64 bits, else
 * a pointer to it (only the low 64 bits are shown then). */
static void value_str(char *buf, size_t size, const struct type_descriptor *t, void *val)
{
	uint64_t v = (uint64_t)val;

	if (!type_is_int(t)) {
		snprintf(buf, size, "<unknown>");
		return;
	}
	if (type_bit_width(t) > 64)
		v = *(uint64_t *)val;
	if (type_is_signed(t)) {
		unsigned bits = type_bit_width(t);
		int64_t s = bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
		snprintf(buf, size, "%ld", s);
	} else {
		snprintf(buf, size, "%lu", v);
	}
}

static void handle_overflow(struct overflow_data *data, void *lhs, void *rhs, char op)
{
	char l[32], r[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, type_is_signed(data->type) ? "signed-integer-overflow"
							       : "unsigned-integer-overflow");
	value_str(l, sizeof(l), data->type, lhs);
	value_str(r, sizeof(r), data->type, rhs);
	printk(KERN_ERR "%s %c %s cannot be represented in type %s\n", l, op, r, data->type->type_name);
	epilogue();
}

void __ubsan_handle_add_overflow(struct overflow_data *data, void *lhs, void *rhs)
{
	handle_overflow(data, lhs, rhs, '+');
}

void __ubsan_handle_sub_overflow(struct overflow_data *data, void *lhs, void *rhs)
{
	handle_overflow(data, lhs, rhs, '-');
}

void __ubsan_handle_mul_overflow(struct overflow_data *data, void *lhs, void *rhs)
{
	handle_overflow(data, lhs, rhs, '*');
}

void __ubsan_handle_negate_overflow(struct overflow_data *data, void *old)
{
	char v[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, "negation-overflow");
	value_str(v, sizeof(v), data->type, old);
	printk(KERN_ERR "negation of %s cannot be represented in type %s:\n", v, data->type->type_name);
	epilogue();
}

void __ubsan_handle_divrem_overflow(struct overflow_data *data, void *lhs, void *rhs)
{
	char l[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, "division-overflow");
	value_str(l, sizeof(l), data->type, lhs);
	if (type_is_signed(data->type) && (int64_t)rhs == -1)
		printk(KERN_ERR "division of %s by -1 cannot be represented in type %s\n", l,
		       data->type->type_name);
	else
		printk(KERN_ERR "division by zero\n");
	epilogue();
}

void __ubsan_handle_type_mismatch_v1(struct type_mismatch_data_v1 *data, void *ptr)
{
	uint64_t align = 1UL << data->log_alignment;
	const char *kind = data->type_check_kind < ARRAY_SIZE(type_check_kinds)
				   ? type_check_kinds[data->type_check_kind] : "access to";

	if (suppress(&data->location))
		return;
	if (!ptr) {
		prologue(&data->location, "null-ptr-deref");
		printk(KERN_ERR "%s null pointer of type %s\n", kind, data->type->type_name);
	} else if (data->log_alignment && ((uint64_t)ptr & (align - 1))) {
		prologue(&data->location, "misaligned-access");
		printk(KERN_ERR "%s misaligned address %p for type %s\n", kind, ptr, data->type->type_name);
		printk(KERN_ERR "which requires %lu byte alignment\n", (unsigned long)align);
	} else {
		prologue(&data->location, "object-size-mismatch");
		printk(KERN_ERR "%s address %p with insufficient space\n", kind, ptr);
		printk(KERN_ERR "for an object of type %s\n", data->type->type_name);
	}
	epilogue();
}

void __ubsan_handle_out_of_bounds(struct out_of_bounds_data *data, void *index)
{
	char i[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, "array-index-out-of-bounds");
	value_str(i, sizeof(i), data->index_type, index);
	printk(KERN_ERR "index %s is out of range for type %s\n", i, data->array_type->type_name);
	epilogue();
}

void __ubsan_handle_shift_out_of_bounds(struct shift_out_of_bounds_data *data, void *lhs, void *rhs)
{
	char l[32], r[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, "shift-out-of-bounds");
	value_str(l, sizeof(l), data->lhs_type, lhs);
	value_str(r, sizeof(r), data->rhs_type, rhs);
	if (type_is_signed(data->rhs_type) && (int64_t)rhs < 0)
		printk(KERN_ERR "shift exponent %s is negative\n", r);
	else if ((uint64_t)rhs >= type_bit_width(data->lhs_type))
		printk(KERN_ERR "shift exponent %s is too large for %u-bit type %s\n", r,
		       type_bit_width(data->lhs_type), data->lhs_type->type_name);
	else if (type_is_signed(data->lhs_type) && (int64_t)lhs < 0)
		printk(KERN_ERR "left shift of negative value %s\n", l);
	else
		printk(KERN_ERR "left shift of %s by %s places cannot be represented in type %s\n", l, r,
		       data->lhs_type->type_name);
	epilogue();
}

void __noreturn __ubsan_handle_builtin_unreachable(struct unreachable_data *data)
{
	prologue(&data->location, "unreachable");
	printk(KERN_ERR "calling __builtin_unreachable()\n");
	epilogue();
	panic("can't return from __builtin_unreachable()");
}

void __noreturn __ubsan_handle_missing_return(struct unreachable_data *data)
{
	prologue(&data->location, "missing-return");
	printk(KERN_ERR "execution reached the end of a value-returning function without returning a value\n");
	epilogue();
	panic("missing return");
}

void __ubsan_handle_load_invalid_value(struct invalid_value_data *data, void *val)
{
	char v[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, "invalid-load");
	value_str(v, sizeof(v), data->type, val);
	printk(KERN_ERR "load of value %s is not a valid value for type %s\n", v, data->type->type_name);
	epilogue();
}

void __ubsan_handle_vla_bound_not_positive(struct vla_bound_data *data, void *bound)
{
	char b[32];

	if (suppress(&data->location))
		return;
	prologue(&data->location, "vla-bound-not-positive");
	value_str(b, sizeof(b), data->type, bound);
	printk(KERN_ERR "variable length array bound evaluates to non-positive value %s\n", b);
	epilogue();
}

void __ubsan_handle_nonnull_arg(struct nonnull_arg_data *data)
{
	if (suppress(&data->location))
		return;
	prologue(&data->location, "nonnull-arg");
	printk(KERN_ERR "null pointer passed as argument %d, which is declared to never be null\n",
	       data->arg_index);
	epilogue();
}

void __ubsan_handle_nonnull_return_v1(struct nonnull_return_data *data, struct source_location *loc)
{
	(void)data;
	if (suppress(loc))
		return;
	prologue(loc, "nonnull-return");
	printk(KERN_ERR "null pointer returned from function declared to never return null\n");
	epilogue();
}

void __ubsan_handle_pointer_overflow(struct pointer_overflow_data *data, void *base, void *result)
{
	if (suppress(&data->location))
		return;
	prologue(&data->location, "pointer-overflow");
	printk(KERN_ERR "pointer operation overflowed %p to %p\n", base, result);
	epilogue();
}

void __ubsan_handle_invalid_builtin(struct invalid_builtin_data *data)
{
	if (suppress(&data->location))
		return;
	prologue(&data->location, "invalid-builtin-use");
	printk(KERN_ERR "passing zero to %s, which is not a valid argument\n",
	       data->kind == 0 ? "ctz()" : "clz()");
	epilogue();
}
