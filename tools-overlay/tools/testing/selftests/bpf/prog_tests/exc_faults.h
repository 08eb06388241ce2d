/* SPDX-License-Identifier: GPL-2.0 */
/* Fault injection for the exception suites ('just faults'): failslab and
 * fail_page_alloc, both restricted by their stack filter to allocations
 * made under one kernel function (bpf_prog_load, bpf_throw, ...), for this
 * thread only. Two ways to fail:
 *  - exc_fi_nth(N): the N-th allocation under the function fails
 *    (/proc/thread-self/fail-nth); exc_fi_nth_end() says whether it did,
 *    and with a large N counts the allocations made.
 *  - exc_fi_prob(P): each allocation fails with probability P% while
 *    make-it-fail is set (task-filter).
 * Needs CONFIG_FAULT_INJECTION_STACKTRACE_FILTER (the hardened flavour).
 */
#ifndef __EXC_FAULTS_H
#define __EXC_FAULTS_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXC_FI_DIR "/sys/kernel/debug/"
/* more than any load or run of these suites allocates */
#define EXC_FI_COUNT 100000000U

static const char * const exc_fi_attrs[] = { "failslab", "fail_page_alloc" };

static inline int exc_fi_write(const char *path, const char *val)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static inline int exc_fi_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

/* Set debugfs attribute @name of one fault attribute dir, or of both */
static inline int exc_fi_set1(const char *dir, const char *name, const char *val)
{
	char path[128];
	int err;

	snprintf(path, sizeof(path), EXC_FI_DIR "%s/%s", dir, name);
	err = exc_fi_write(path, val);
	if (err)
		fprintf(stderr, "exc_faults: writing '%s' to %s: %s\n", val, path, strerror(-err));
	return err;
}

static inline int exc_fi_set(const char *name, const char *val)
{
	int i, err;

	for (i = 0; i < 2; i++) {
		err = exc_fi_set1(exc_fi_attrs[i], name, val);
		if (err)
			return err;
	}
	return 0;
}

/* [*start, *end) of kernel text symbol @func: the next symbol starts its end */
static inline int exc_fi_func_range(const char *func, unsigned long *start, unsigned long *end)
{
	unsigned long addr, next = ULONG_MAX;
	char line[512], name[256], type;
	FILE *f;

	*start = 0;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) != 3 || strchr(line, '['))
			continue;
		if ((type == 't' || type == 'T') && !strcmp(name, func))
			*start = addr;
	}
	rewind(f);
	while (*start && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx", &addr) == 1 && addr > *start && addr < next)
			next = addr;
	}
	fclose(f);
	*end = next;
	return *start && next != ULONG_MAX ? 0 : -ENOENT;
}

/* The range of kernel function @func as the attributes @what-start and
 * @what-end
 */
static inline int exc_fi_range(const char *what, const char *func)
{
	unsigned long start, end;
	char v[32], name[32];
	int err;

	err = exc_fi_func_range(func, &start, &end);
	if (err) {
		fprintf(stderr, "exc_faults: no kernel symbol %s (is kptr_restrict 0?)\n", func);
		return err;
	}
	snprintf(v, sizeof(v), "%lu", end);
	snprintf(name, sizeof(name), "%s-end", what);
	err = exc_fi_set(name, v);
	snprintf(v, sizeof(v), "%lu", start);
	snprintf(name, sizeof(name), "%s-start", what);
	return err ?: exc_fi_set(name, v);
}

/* Fail only allocations with @func on the stack */
static inline int exc_fi_scope(const char *func)
{
	return exc_fi_range("require", func);
}

/* Arm both attributes for allocations under @func, failing nothing yet.
 * ignore-gfp-wait=N: the verifier's GFP_KERNEL allocations may fail too;
 * fail_page_alloc keeps ignoring highmem (user pages) but fails order 0.
 */
static inline int exc_fi_setup(const char *func)
{
	return exc_fi_set("probability", "0") ?: exc_fi_set("interval", "1") ?:
	       exc_fi_set("times", "-1") ?: exc_fi_set("space", "0") ?:
	       exc_fi_set("verbose", "0") ?: exc_fi_set("task-filter", "Y") ?:
	       exc_fi_set("ignore-gfp-wait", "N") ?:
	       exc_fi_set("stacktrace-depth", "32") ?:
	       exc_fi_set1("fail_page_alloc", "min-order", "0") ?:
	       exc_fi_set1("fail_page_alloc", "ignore-gfp-highmem", "Y") ?:
	       exc_fi_scope(func);
}

static inline int exc_fi_thread(const char *file, unsigned int v)
{
	char path[64], val[16];

	snprintf(path, sizeof(path), "/proc/thread-self/%s", file);
	snprintf(val, sizeof(val), "%u", v);
	return exc_fi_write(path, val);
}

/* The kernel's defaults again: nothing fails */
static inline void exc_fi_teardown(void)
{
	char v[32];

	exc_fi_thread("make-it-fail", 0);
	exc_fi_thread("fail-nth", 0);
	exc_fi_set("probability", "0");
	exc_fi_set("task-filter", "N");
	exc_fi_set("ignore-gfp-wait", "Y");
	exc_fi_set1("fail_page_alloc", "min-order", "1");
	exc_fi_set("require-start", "0");
	exc_fi_set("reject-start", "0");
	exc_fi_set("reject-end", "0");
	snprintf(v, sizeof(v), "%lu", ULONG_MAX);
	exc_fi_set("require-end", v);
}

/* The @n-th allocation under the scope fails */
static inline int exc_fi_nth(unsigned int n)
{
	return exc_fi_thread("fail-nth", n);
}

/* Disarm fail-nth; *@left: how many allocations were still to go (0: the
 * failure was injected)
 */
static inline int exc_fi_nth_end(unsigned int *left)
{
	char buf[32];
	int err;

	err = exc_fi_read("/proc/thread-self/fail-nth", buf, sizeof(buf));
	exc_fi_thread("fail-nth", 0);
	if (err)
		return err;
	*left = strtoul(buf, NULL, 10);
	return 0;
}

/* Each allocation under the scope fails with probability @pct% until
 * exc_fi_prob_end()
 */
static inline int exc_fi_prob(unsigned int pct)
{
	char v[16];
	int err;

	snprintf(v, sizeof(v), "%u", pct);
	err = exc_fi_set("probability", v);
	return err ?: exc_fi_thread("make-it-fail", 1);
}

static inline void exc_fi_prob_end(void)
{
	exc_fi_thread("make-it-fail", 0);
	exc_fi_set("probability", "0");
}

/* How many allocations libbpf's trivial probe load makes (a socket
 * filter that returns 0, as bpf_object__probe_loading() loads it at the
 * start of each bpf_object__load()); libbpf reports a failure of it as
 * its fallback's -EINVAL, so faulted loads skip these sites.
 */
static inline int exc_fi_probe_sites(void)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	unsigned int left = 0;
	int fd;

	exc_fi_nth(EXC_FI_COUNT);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			   ARRAY_SIZE(insns), NULL);
	exc_fi_nth_end(&left);
	if (fd < 0)
		return -1;
	close(fd);
	return EXC_FI_COUNT - left;
}

static inline bool exc_fi_mode(const char *mode)
{
	const char *m = getenv("EXC_FAULTS");

	return m && !strcmp(m, mode);
}

/* EXC_FAULTS=throw: count the allocations made under bpf_throw() while a
 * suite runs, in this thread (the test runs and the syscalls that fire
 * the programs); a throw must never need memory.
 */
static inline unsigned int exc_fi_throw_nth(void)
{
	const char *nth = getenv("EXC_FAULTS_THROW_NTH");

	return nth ? strtoul(nth, NULL, 10) : EXC_FI_COUNT;
}

/* EXC_FAULTS_THROW_NTH=n: fail the n-th of them instead, with the
 * allocation's stack in the kernel log (verbose), to find who allocates
 */
static inline bool exc_fi_throw_begin(void)
{
	unsigned int nth = exc_fi_throw_nth();

	if (!exc_fi_mode("throw"))
		return false;
	/* With CONFIG_SLUB_RCU_DEBUG (KASAN's companion), freeing into an
	 * SLAB_TYPESAFE_BY_RCU cache (nf_conn's) kmallocs a GFP_NOWAIT
	 * record to delay the free, and frees at once if that fails: the
	 * allocator's debugging, not the throw's, so not counted.
	 */
	if (!ASSERT_OK(exc_fi_setup("bpf_throw") ?: exc_fi_range("reject", "kmem_cache_free"),
		       "fault injection set up"))
		return false;
	if (nth != EXC_FI_COUNT)
		exc_fi_set("verbose", "1");
	exc_fi_nth(nth);
	return true;
}

static inline void exc_fi_throw_end(bool on)
{
	unsigned int nth = exc_fi_throw_nth(), left = nth;

	if (!on)
		return;
	exc_fi_nth_end(&left);
	exc_fi_teardown();
	ASSERT_EQ(nth - left, 0, "allocations under bpf_throw");
}

/* EXC_FAULTS=load: the caller loads with allocation exc_fi_load_site()
 * failing, until a load succeeds though its allocation failed
 */
#define EXC_FI_LOAD_TRIES 24

static inline unsigned int exc_fi_load_site(unsigned int sites, int probe)
{
	if ((int)sites <= probe + 1)
		return sites;
	return probe + 1 + rand() % (sites - probe);
}

/* Is @err a clean end of a load whose allocation failed? */
static inline bool exc_fi_clean_err(int err)
{
	return err == -ENOMEM || err == -524 /* ENOTSUPP: not JITed */;
}

#endif /* __EXC_FAULTS_H */
