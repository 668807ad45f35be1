/* quiet.c - does nothing and exits 0: the cheapest program of each kind,
 * for the leak checks and make bench. */
int main(void)
{
	return 0;
}
