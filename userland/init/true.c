/*
 * true - exit 0 at once. The program that leak and bench run thousands of
 * times: it costs the kernel one execve and nothing else.
 */
int main(void)
{
	return 0;
}
