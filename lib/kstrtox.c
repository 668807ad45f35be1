/*
 * kstrtox.c - strings to integers, strictly, with Linux's kstrto*()
 * rules. They are for text a user wrote into a kernel file (a sysfs or
 * proc value, a binfmt_misc offset), where anything but a number is an
 * error, never a number read up to the first odd byte:
 *
 *   - an optional sign: '+' for any type, '-' only for the signed ones;
 *   - base 0 picks the base from the prefix, as C does: "0x" or "0X" is
 *     16, a leading "0" is 8, else 10; base 16 also accepts "0x";
 *   - at least one digit, then at most one '\n' (what `echo` appends),
 *     then the end of the string: no spaces, no other byte;
 *   - a value that does not fit the type is -ERANGE, anything else
 *     malformed -EINVAL. *res is written only on success.
 */
#include <kernel.h>
#include <errno.h>

/* The base to use, and where the digits start, for base 0 and 16. */
static const char *kstrto_prefix(const char *s, unsigned int *base)
{
	bool hex_prefix = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hex_to_bin(s[2]) >= 0;

	if (*base == 0) {
		if (hex_prefix)
			*base = 16;
		else if (s[0] == '0')
			*base = 8;
		else
			*base = 10;
	}
	if (*base == 16 && hex_prefix)
		s += 2;
	return s;
}

/* Digits (no sign) to an unsigned 64-bit value. */
static int kstrto_digits(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	const char *start;

	s = kstrto_prefix(s, &base);
	for (start = s;; s++) {
		int d = hex_to_bin(*s);

		if (d < 0 || (unsigned int)d >= base)
			break;
		if (v > (~0ULL - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (s == start)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (*s == '+')
		s++;
	return kstrto_digits(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	bool neg = *s == '-';
	int err = neg ? kstrto_digits(s + 1, base, &v) : kstrtoull(s, base, &v);

	if (err)
		return err;
	if (neg ? v > (unsigned long long)INT64_MAX + 1 : v > INT64_MAX)
		return -ERANGE;
	*res = neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}
