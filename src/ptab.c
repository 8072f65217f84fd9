/*
 * The page table of cookies: a power-of-two array of 32-bit slots indexed with
 * a mask and probed linearly; a slot holds id + 1 (0 is empty) and ids are
 * handed out in order, so keys and counts are dense arrays. Sized once; it
 * refuses an insert past its load limit instead of degrading or growing.
 * Callers sizing it add slack to their bound, so 7/8 is rarely approached.
 */
#include "exmap.h"

static uint32_t slots_for(uint32_t cap)
{
	uint64_t want = (uint64_t)cap + cap / 7 + 1;	/* load at most 7/8 */
	uint64_t n = 16;

	while (n < want)
		n <<= 1;
	return n > (UINT64_C(1) << 31) ? 0 : (uint32_t)n;
}

size_t ptab_bytes(uint32_t cap)
{
	return (size_t)slots_for(cap) * 4 + (size_t)cap * 12 + 16;
}

void ptab_init(struct ptab *t, struct arena *a, uint32_t cap)
{
	uint32_t slots = slots_for(cap);

	if (slots == 0)
		die("page table of %u pages is too large for this build; lower -t", cap);
	t->slot = arena_alloc(a, (size_t)slots * 4, 8);
	t->key = arena_alloc(a, (size_t)cap * 8, 8);
	t->count = arena_alloc(a, (size_t)cap * 4, 4);
	t->mask = slots - 1;
	t->shift = 64;
	while (slots > 1) {
		slots >>= 1;
		t->shift--;
	}
	t->n = 0;
	t->cap = cap;
}

/* Fibonacci hashing: the top bits of the product are the well-mixed ones. */
static inline uint32_t hash(const struct ptab *t, uint64_t cookie)
{
	return (uint32_t)((cookie * UINT64_C(0x9e3779b97f4a7c15)) >> t->shift);
}

/* Count one more PTE for cookie; its id, or UINT32_MAX when the table is full. */
uint32_t ptab_ref(struct ptab *t, uint64_t cookie)
{
	uint32_t i = hash(t, cookie), id;

	for (;; i = (i + 1) & t->mask) {
		uint32_t s = t->slot[i];

		if (s == 0)
			break;
		if (t->key[s - 1] == cookie) {
			t->count[s - 1]++;
			return s - 1;
		}
	}
	if (t->n == t->cap)
		return UINT32_MAX;
	id = t->n++;
	t->key[id] = cookie;
	t->count[id] = 1;
	t->slot[i] = id + 1;
	return id;
}

/*
 * The same, trying id `hint` first: pages that one process met in order are
 * usually met in the same order by the next, so the hint skips the probe.
 */
uint32_t ptab_ref_hint(struct ptab *t, uint64_t cookie, uint32_t hint)
{
	if (hint < t->n && t->key[hint] == cookie) {
		t->count[hint]++;
		return hint;
	}
	return ptab_ref(t, cookie);
}

uint32_t ptab_find(const struct ptab *t, uint64_t cookie)
{
	uint32_t i = hash(t, cookie);

	for (;; i = (i + 1) & t->mask) {
		uint32_t s = t->slot[i];

		if (s == 0)
			return UINT32_MAX;
		if (t->key[s - 1] == cookie)
			return s - 1;
	}
}
