/* twice.c - a shared library (/lib/libtwice.so) for the shlib test: a
 * function, a variable and a thread-local one. */
int twice_calls;
__thread int twice_tls = 100;

int twice(int x)
{
	twice_calls++;
	twice_tls++;
	return 2 * x;
}
