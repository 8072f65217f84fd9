/* exmap-mini: the command line read, checked against the table of views, and run. */
#include "cli.h"

int main(int argc, char **argv)
{
	static struct cmdline c;

	c.views = views;
	c.nviews = nviews;
	cli_parse(&c, argc, argv);
	if (c.help || c.version) {
		if (c.help)
			usage(views, nviews);
		else
			outs("exmap-mini " EXMAP_VERSION "\n");
		out_flush();
		return EX_OK;
	}
	cli_check(&c);
	return c.v->run(&c);
}
