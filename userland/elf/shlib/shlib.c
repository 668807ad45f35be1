/*
 * shlib.c - a program linked with a shared library (libtwice.so, found in
 * /lib by the dynamic loader), which also loads it again with dlopen and
 * looks a symbol up with dlsym: the same library, the same function. Built
 * for musl (/usr/lib/exec-tests/shlib-dyn) and glibc (/usr/lib/exec-tests/shlib-gdyn).
 */
#include <dlfcn.h>
#include <stdio.h>

extern int twice(int);
extern int twice_calls;
extern __thread int twice_tls;

int main(int argc, char **argv)
{
	void *h;
	int (*f)(int), r;

	(void)argc;
	r = twice(21);
	printf("%s: twice(21) = %d, calls %d, its TLS %d\n", argv[0], r, twice_calls, twice_tls);
	h = dlopen("libtwice.so", RTLD_NOW);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	f = (int (*)(int))dlsym(h, "twice");
	r = f ? f(5) : -1;
	printf("dlsym(twice) is the linked twice: %s; f(5) = %d, calls %d\n",
	       f == twice ? "yes" : "no", r, twice_calls);
	printf("dlopen of a missing library: %s\n", dlopen("libmissing.so", RTLD_NOW) ? "found" : "NULL");
	dlclose(h);
	return 0;
}
