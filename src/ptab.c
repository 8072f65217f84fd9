/* The page table: a fixed-size open-addressing table of page cookies, by blocks. */
/*
 * The page table of cookies. Ids are handed out in order, so the counts are a
 * dense array by id. A cookie's id is found through its block of PT_BLOCK
 * consecutive cookies: an open-addressing table of blocks (a power of two,
 * Fibonacci-hashed, probed linearly), each with PT_BLOCK id slots. Pages that
 * lie together in RAM share a block, so the table touches memory in
 * proportion to the RAM the scanned pages occupy, not to the table's size.
 * Ids given to cookies that follow one another make a stretch, kept as its
 * first id and cookie (when the cookies fit 32 bits), with a bit for each id
 * that begins one and the count of such bits before every 64 ids: pages met
 * again in the order they were first met (a forked child's, a large
 * folio's) are known from the id the caller expects, a word of bits for 64
 * of them and no lookup of their block. While pages are counted, a stretch
 * of ids one more each is two changes to the counts' differences; ptab_sum
 * makes them counts. Sized once; an insert past either limit fails instead
 * of degrading.
 */
#include "exmap.h"

static uint32_t buckets_for(uint32_t bcap)
{
	uint64_t want = (uint64_t)bcap + bcap / 7 + 1;	/* load at most 7/8 */
	uint64_t n = 16;

	while (n < want)
		n <<= 1;
	return n > (UINT64_C(1) << 31) / PT_BLOCK ? 0 : (uint32_t)n;
}

size_t ptab_bytes(uint32_t cap, uint32_t bcap)
{
	size_t nb = buckets_for(bcap);

	return nb * (8 + (size_t)PT_BLOCK * 4) + ((size_t)cap + 1) * 12 + ((size_t)cap / 64 + 2) * 12 +
	       5 * PT_PAGE;
}

void ptab_init(struct ptab *t, struct arena *a, uint32_t cap, uint32_t bcap)
{
	uint32_t nb = buckets_for(bcap);

	if (nb == 0)
		die("page table of %u blocks of pages is too large for this build; lower -t", bcap);
	/* whole pages: a block's slots are first touched by a write */
	t->slot = arena_alloc(a, (size_t)nb * PT_BLOCK * 4, PT_PAGE);
	t->bkey = arena_alloc(a, (size_t)nb * 8, 8);
	t->count = arena_alloc(a, ((size_t)cap + 1) * 4, 4);
	t->str = arena_alloc(a, ((size_t)cap + 1) * sizeof(*t->str), 4);
	t->brk = arena_alloc(a, ((size_t)cap / 64 + 2) * 8, 8);
	t->rank = arena_alloc(a, ((size_t)cap / 64 + 2) * 4, 4);
	t->rank[0] = 0;
	t->nstr = 0;
	t->summed = 0;
	t->bmask = nb - 1;
	t->bshift = 64;
	while (nb > 1) {
		nb >>= 1;
		t->bshift--;
	}
	t->nblock = 0;
	t->bcap = bcap;
	t->n = 0;
	t->cap = cap;
	t->last = 0;
}

/* Fibonacci hashing: the top bits of the product are the well-mixed ones. */
static inline uint32_t hash(const struct ptab *t, uint64_t block)
{
	return (uint32_t)((block * UINT64_C(0x9e3779b97f4a7c15)) >> t->bshift);
}

/* The bucket of block (stored as block + 1); UINT32_MAX if absent and not added. */
static uint32_t bucket(const struct ptab *t, uint64_t block, int add, int *added)
{
	uint32_t b = hash(t, block);

	*added = 0;
	for (;; b = (b + 1) & t->bmask) {
		if (t->bkey[b] == block + 1)
			return b;
		if (t->bkey[b] == 0)
			break;
	}
	if (!add || t->nblock == t->bcap)
		return UINT32_MAX;
	*added = 1;
	return b;
}

/* k ids from id on counted once more: while counting, as differences. */
static inline void add(struct ptab *t, uint32_t id, uint32_t k)
{
	uint32_t j;

	if (!t->summed) {
		t->count[id]++;
		t->count[id + k]--;
	} else {
		for (j = 0; j < k; j++)
			t->count[id + j]++;
	}
}

/* Take back one count of the k ids from id on. */
void ptab_drop(struct ptab *t, uint32_t id, uint32_t k)
{
	uint32_t j;

	if (!t->summed) {
		t->count[id]--;
		t->count[id + k]++;
	} else {
		for (j = 0; j < k; j++)
			t->count[id + j]--;
	}
}

/* The counts from their differences, once every page is counted. */
void ptab_sum(struct ptab *t)
{
	uint32_t i, c = 0;

	if (t->summed)
		return;
	for (i = 0; i < t->n; i++)
		t->count[i] = c += t->count[i];
	t->count[t->n] = 0;
	t->summed = 1;
}

/* The stretch id is in: its index, the stretches begun by ids up to it, less one. */
static inline uint32_t stretch_of(const struct ptab *t, uint32_t id)
{
	uint64_t below = t->brk[id >> 6] & ((UINT64_C(2) << (id & 63)) - 1);

	return t->rank[id >> 6] + (uint32_t)__builtin_popcountll(below) - 1;
}

/*
 * How many of the n cookies from cookie on are ids id, id + 1 and on: id's
 * stretch gives it that cookie, and it goes on up to there. 0 when id's
 * cookie is another, or one that does not fit 32 bits.
 */
static uint32_t follow(const struct ptab *t, uint32_t id, uint64_t cookie, uint64_t n)
{
	uint64_t lim = t->n - id < n ? t->n - id : n, a = id + 1, w;
	const struct pt_stretch *s;

	if (cookie >= UINT32_MAX)
		return 0;
	s = &t->str[stretch_of(t, id)];
	if (s->cookie + (id - s->id) != cookie)
		return 0;
	if (lim > PT_RUN_MAX)
		lim = PT_RUN_MAX;
	/* the next stretch's first id in (id, id + lim) */
	for (; a < id + lim; a = (a | 63) + 1)
		if ((w = t->brk[a >> 6] >> (a & 63)) != 0) {
			a += (uint64_t)__builtin_ctzll(w);
			return a < id + lim ? (uint32_t)(a - id) : (uint32_t)lim;
		}
	return (uint32_t)lim;
}

/*
 * k new ids from t->n on, for the cookies from cookie on: a stretch of their
 * own unless they go on from the last ids' cookies (one that does not fit
 * 32 bits is always one alone); the bits counted for every 64 ids passed.
 */
static void stretch(struct ptab *t, uint64_t cookie, uint32_t k)
{
	uint32_t n = t->n, w;

	if (n == 0 || cookie >= UINT32_MAX || cookie != t->last_cookie + 1) {
		t->brk[n >> 6] |= UINT64_C(1) << (n & 63);
		t->str[t->nstr++] = (struct pt_stretch){ n, cookie < UINT32_MAX ? (uint32_t)cookie : UINT32_MAX };
	}
	t->last_cookie = cookie + k - 1;
	t->n = n + k;
	for (w = (n >> 6) + 1; w <= t->n >> 6; w++)
		t->rank[w] = t->rank[w - 1] + (uint32_t)__builtin_popcountll(t->brk[w - 1]);
}

/*
 * Count one more PTE for each of the n cookies from cookie on, as far as
 * their ids follow one another: all known in that order (looked for at id
 * hint first), or all new in one block (then given the next ids). How many
 * were counted, the first's id in *id; 0 when the first is new and the
 * table is full.
 */
uint32_t ptab_run(struct ptab *t, uint64_t cookie, uint64_t n, uint32_t hint, uint32_t *id)
{
	uint64_t block = cookie >> PT_BLOCK_SHIFT;
	uint32_t b = t->last, *slot, first, k, j, max = PT_BLOCK - (uint32_t)(cookie & (PT_BLOCK - 1));
	int added = 0;

	if (hint < t->n && (k = follow(t, hint, cookie, n)) != 0) {
		first = hint + 1;
		goto known;
	}
	if (n < max)
		max = (uint32_t)n;
	/* consecutive pages mostly share the last one's block */
	if (t->bkey[b] != block + 1 && (b = bucket(t, block, 1, &added)) == UINT32_MAX)
		return 0;
	slot = &t->slot[(size_t)b * PT_BLOCK + (cookie & (PT_BLOCK - 1))];
	if (!added && (first = slot[0]) != 0) {
		t->last = b;
		if ((k = follow(t, first - 1, cookie, n)) == 0)	/* a cookie past 32 bits */
			for (k = 1; k < max && slot[k] == first + k; k++)
				;
		goto known;
	}
	if (t->n == t->cap)
		return 0;
	if (added) {
		t->bkey[b] = block + 1;
		t->nblock++;
		k = max;	/* a new block's slots are all empty */
	} else {
		for (k = 1; k < max && slot[k] == 0; k++)
			;
	}
	if (k > t->cap - t->n)
		k = t->cap - t->n;
	/* a stretch's cookies all fit 32 bits, or it is one cookie */
	if (cookie >= UINT32_MAX)
		k = 1;
	else if (k > UINT32_MAX - cookie)
		k = (uint32_t)(UINT32_MAX - cookie);
	for (j = 0; j < k; j++)
		slot[j] = t->n + 1 + j;
	t->last = b;
	first = t->n + 1;
	stretch(t, cookie, k);
known:
	add(t, first - 1, k);
	*id = first - 1;
	return k;
}

/* Count one more PTE for cookie; its id, or UINT32_MAX when the table is full. */
uint32_t ptab_ref(struct ptab *t, uint64_t cookie)
{
	uint32_t id;

	return ptab_run(t, cookie, 1, UINT32_MAX, &id) ? id : UINT32_MAX;
}

/* The slots of cookie's block from its own on (id + 1, 0 empty), or NULL when the block has none. */
const uint32_t *ptab_slots(const struct ptab *t, uint64_t cookie)
{
	int added;
	uint32_t b = bucket(t, cookie >> PT_BLOCK_SHIFT, 0, &added);

	return b == UINT32_MAX ? NULL : &t->slot[(size_t)b * PT_BLOCK + (cookie & (PT_BLOCK - 1))];
}

uint32_t ptab_find(const struct ptab *t, uint64_t cookie)
{
	int added;
	uint32_t b = bucket(t, cookie >> PT_BLOCK_SHIFT, 0, &added), s;

	if (b == UINT32_MAX)
		return UINT32_MAX;
	s = t->slot[(size_t)b * PT_BLOCK + (cookie & (PT_BLOCK - 1))];
	return s ? s - 1 : UINT32_MAX;
}
