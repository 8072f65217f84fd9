/* A full-screen terminal with VT100 sequences only: raw keys, its size, redrawing what changed. */
/*
 * Made for a serial console at 115200 baud: no terminfo, no curses. The
 * screen is kept as it was last drawn, and a frame sends only the lines that
 * differ from it, so moving the cursor down a row costs two lines, not a
 * screen. The terminal is given back as it was found on every way out: a
 * key, a signal (INT, TERM, HUP, QUIT) or a fatal error.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "exmap.h"

#define OUT_MAX	8192	/* bytes sent at a time */

static struct termios saved;
static int raw_on;
static volatile sig_atomic_t resized;
static int rows, cols;
static struct {
	char text[TERM_COLS_MAX + 1];
	int attr;		/* 1: reverse video */
	int valid;		/* what the screen shows is known */
} shown[TERM_ROWS_MAX], want[TERM_ROWS_MAX];
static char obuf[OUT_MAX];
static size_t olen;
static uint64_t sent;		/* bytes written, for the tests and README */

static void send_all(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(1, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= w;
		sent += w;
	}
}

static void put(const char *s, size_t n)
{
	if (n > sizeof(obuf) - olen) {
		send_all(obuf, olen);
		olen = 0;
	}
	if (n > sizeof(obuf)) {
		send_all(s, n);
		return;
	}
	memcpy(obuf + olen, s, n);
	olen += n;
}

static void puts_(const char *s)
{
	put(s, strlen(s));
}

static void flush_out(void)
{
	send_all(obuf, olen);
	olen = 0;
}

/* The raw calls: musl's tcsetattr() would bring 32-bit time conversions along. */
static int tc_get(struct termios *t)
{
	return syscall(SYS_ioctl, 0, TCGETS, t);
}

static int tc_set(const struct termios *t)
{
	return syscall(SYS_ioctl, 0, TCSETSW, t);
}

/* Back as it was: attributes off, cursor shown, the screen left, the modes restored. */
void term_close(void)
{
	static const char bye[] = "\033[m\033[?25h\033[?1049l";

	if (!raw_on)
		return;
	raw_on = 0;
	olen = 0;
	(void)!write(1, bye, sizeof(bye) - 1);
	tc_set(&saved);
}

static void on_signal(int sig)
{
	term_close();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

/* Raw mode on a terminal at fd 0 and 1: 0, or -1 when either is not a terminal. */
int term_open(void)
{
	struct termios t;
	struct sigaction sa;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	size_t i;

	if (tc_get(&saved) < 0 || !is_terminal(1))
		return -1;
	t = saved;
	t.c_iflag &= ~(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT);
	t.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
	t.c_oflag &= ~OPOST;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tc_set(&t) < 0)
		return -1;
	raw_on = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	on_fatal(term_close);
	/* the alternate screen, cursor hidden */
	puts_("\033[?1049h\033[?25l\033[H\033[2J");
	flush_out();
	return 0;
}

/* A byte within ms milliseconds, or -1. */
static int read_byte(int ms)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	unsigned char c;

	if (poll(&p, 1, ms) <= 0 || read(0, &c, 1) != 1)
		return -1;
	return c;
}

/*
 * The terminal's size: from the kernel (TIOCGWINSZ); where that is 0x0, as on
 * a serial console, from the terminal itself (the cursor sent far away, then
 * its position asked, half a second allowed); else 80x24.
 */
void term_size(int *r, int *c)
{
	struct winsize ws;
	char buf[32];
	int n = 0, ch, y = 0, x = 0;

	if (syscall(SYS_ioctl, 1, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		y = ws.ws_row;
		x = ws.ws_col;
	} else {
		puts_("\0337\033[999;999H\033[6n\0338");
		flush_out();
		/* ESC [ rows ; cols R */
		while (n < (int)sizeof(buf) - 1 && (ch = read_byte(500)) >= 0) {
			buf[n++] = (char)ch;
			if (ch == 'R')
				break;
		}
		buf[n] = '\0';
		if (n > 4 && buf[0] == '\033' && buf[1] == '[' && buf[n - 1] == 'R') {
			const char *p = buf + 2;

			while (*p >= '0' && *p <= '9')
				y = y * 10 + *p++ - '0';
			if (*p++ == ';')
				while (*p >= '0' && *p <= '9')
					x = x * 10 + *p++ - '0';
		}
	}
	if (y < 3 || x < 20) {
		y = 24;
		x = 80;
	}
	rows = *r = y < TERM_ROWS_MAX ? y : TERM_ROWS_MAX;
	cols = *c = x < TERM_COLS_MAX ? x : TERM_COLS_MAX;
}

/*
 * The next key: a byte, or a K_ code for the keys that send sequences; -1
 * after ms milliseconds (ms < 0: no limit), K_RESIZE when the window changed.
 */
int term_key(int ms)
{
	int c, d, e;

	if (resized) {
		resized = 0;
		return K_RESIZE;
	}
	c = read_byte(ms);
	if (c < 0)
		return resized ? (resized = 0, K_RESIZE) : -1;
	if (c != 0x1b)
		return c;
	/* ESC [ x, ESC O x, ESC [ n ~: a lone ESC is no key */
	if ((d = read_byte(50)) != '[' && d != 'O')
		return 0x1b;
	switch (e = read_byte(50)) {
	case 'A': return K_UP;
	case 'B': return K_DOWN;
	case 'C': return K_RIGHT;
	case 'D': return K_LEFT;
	case 'H': return K_HOME;
	case 'F': return K_END;
	case '1': case '4': case '5': case '6': case '7': case '8':
		if (read_byte(50) != '~')
			return -1;
		return e == '5' ? K_PGUP : e == '6' ? K_PGDN :
		       e == '1' || e == '7' ? K_HOME : K_END;
	}
	return -1;
}

/* Line row of the next frame: its text (cut to the width) and whether it is reversed. */
void term_line(int row, const char *text, int reverse)
{
	size_t n = strlen(text);

	if (row < 0 || row >= rows)
		return;
	if (n > (size_t)cols)
		n = cols;
	memcpy(want[row].text, text, n);
	want[row].text[n] = '\0';
	want[row].attr = reverse;
}

/* The next frame starts on a blank screen of this size (after a resize). */
void term_clear(void)
{
	int i;

	for (i = 0; i < TERM_ROWS_MAX; i++) {
		shown[i].valid = 0;
		want[i].text[0] = '\0';
		want[i].attr = 0;
	}
	puts_("\033[H\033[2J");
}

/* Send the lines that changed since the last frame; the bytes sent so far. */
uint64_t term_flush(void)
{
	char pos[16];
	int i;

	for (i = 0; i < rows; i++) {
		if (shown[i].valid && shown[i].attr == want[i].attr &&
		    strcmp(shown[i].text, want[i].text) == 0)
			continue;
		put(pos, fmt_snprintf(pos, sizeof(pos), "\033[%d;1H", i + 1));
		if (want[i].attr)
			puts_("\033[7m");
		puts_(want[i].text);
		/* a reversed line runs to the edge; any other ends where its text does */
		if (want[i].attr) {
			int k = cols - (int)strlen(want[i].text);

			while (k-- > 0)
				put(" ", 1);
			puts_("\033[m");
		} else {
			puts_("\033[K");
		}
		shown[i] = want[i];
		shown[i].valid = 1;
	}
	flush_out();
	return sent;
}
