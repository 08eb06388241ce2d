// SPDX-License-Identifier: GPL-2.0
/* Every kind of kernel object a BPF program can hold when it throws comes
 * back: each subtest takes one object in a program that throws
 * (progs/exceptions_cleanup_kinds.c), then checks from outside that the
 * object's own counter is where it was before (a task's usage, a socket's
 * refcount, the conntrack count, a key's usage in /proc/keys, ...), that the
 * object is freed once user space drops it (sockets, cgroups), or, over
 * 100000 throws, that each release got an object the program held and
 * memory stays flat. The prog_types subtest throws from
 * tc, xdp, fentry, syscall and socket filter programs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <signal.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>
#include <linux/uhid.h>
#include <test_progs.h>
#include <bpf/btf.h>
#include <network_helpers.h>

#include "cgroup_helpers.h"
#include "exc_faults.h"
#include "exceptions_cleanup_kinds.skel.h"

#define VAL 0xeB9F
#define TAKE_FAILED 1
#define FLOOD 100000
/* bpf_test_run() stays in one RCU read-side section for all its repeats
 * unless it must reschedule: 100000 throws in one call stalled RCU on the
 * hardened kernel under TCG. Chunks let grace periods pass.
 */
#define FLOOD_CHUNK 10000
/* 100000 leaked objects are 6 MiB or more; a flat run stays well below */
#define FLOOD_SLACK_KB 2048
/* warm-up batches of FLOOD / 5 runs at most */
#define FLOOD_WARMUP_MAX 10
/* how long the frees of a flood may take to land */
#define FLOOD_SETTLE_MS 30000
/* runs that get the allocator's deferred frees going again */
#define FLOOD_NUDGE 64

static struct exceptions_cleanup_kinds *open_with(const char * const *progs)
{
	struct exceptions_cleanup_kinds *skel;
	struct bpf_program *p;
	int i;

	skel = exceptions_cleanup_kinds__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return NULL;
	for (i = 0; progs[i]; i++) {
		p = bpf_object__find_program_by_name(skel->obj, progs[i]);
		if (!ASSERT_OK_PTR(p, progs[i]))
			goto err;
		bpf_program__set_autoload(p, true);
	}
	if (!ASSERT_OK(exceptions_cleanup_kinds__load(skel), "load"))
		goto err;
	return skel;
err:
	exceptions_cleanup_kinds__destroy(skel);
	return NULL;
}

/* Test-run @prog (@repeat times) without asserting: the error, or 0 and
 * its return value in *@retval
 */
static int try_run(struct bpf_program *prog, enum bpf_prog_type type, int repeat, int *retval)
{
	struct __sk_buff skb = {};

	LIBBPF_OPTS(bpf_test_run_opts, topts, .repeat = repeat);
	int err;

	if (type == BPF_PROG_TYPE_SCHED_CLS || type == BPF_PROG_TYPE_SOCKET_FILTER ||
	    type == BPF_PROG_TYPE_XDP) {
		topts.data_in = &pkt_v4;
		topts.data_size_in = sizeof(pkt_v4);
	}
	if (type == BPF_PROG_TYPE_SCHED_CLS) {
		topts.ctx_in = &skb;
		topts.ctx_size_in = sizeof(skb);
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);
	*retval = topts.retval;
	return err;
}

static int run(struct bpf_program *prog, enum bpf_prog_type type, int repeat)
{
	int retval;

	if (!ASSERT_OK(try_run(prog, type, repeat, &retval), bpf_program__name(prog)))
		return -1;
	return retval;
}

/* How many times run_throw() throws: 1, or $EXC_SOAK ('just soak') */
static int throws(void)
{
	static int n;
	const char *s;

	if (!n) {
		s = getenv("EXC_SOAK");
		n = s && atoi(s) > 0 ? atoi(s) : 1;
	}
	return n;
}

static bool repeatable(enum bpf_prog_type type)
{
	return type == BPF_PROG_TYPE_SCHED_CLS || type == BPF_PROG_TYPE_XDP ||
	       type == BPF_PROG_TYPE_SOCKET_FILTER;
}

/* A line for ci/soak's table, in $EXC_SOAK_LOG: test_progs keeps a
 * passing test's own output to itself
 */
static void soak_log(const char *fmt, ...)
{
	const char *path = getenv("EXC_SOAK_LOG");
	va_list ap;
	FILE *f;

	f = path ? fopen(path, "a") : NULL;
	if (!ASSERT_OK_PTR(f, "EXC_SOAK_LOG"))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* The ring a soak consumes after each throw (test_prog_types) */
static struct ring_buffer *soak_ring;

/* Run a *_throw program throws() times: each must have thrown VAL,
 * holding its object. A soak asserts once, on the counts ('entered' for
 * every run, the return value of the last of each repeated test_run).
 */
static bool run_throw(struct exceptions_cleanup_kinds *skel, struct bpf_program *prog)
{
	enum bpf_prog_type type = bpf_program__type(prog);
	int entered = skel->bss->entered, ret = 0, i, k, n = throws(), errs = 0, wrong = 0;

	if (n == 1) {
		ret = run(prog, type, 0);
		if (!ASSERT_NEQ(ret, TAKE_FAILED, "taking the object failed"))
			return false;
		if (type != BPF_PROG_TYPE_TRACING)
			ASSERT_EQ(ret, VAL, "retval is the thrown cookie");
	}
	/* test_run repeats in the kernel where the type allows it, in
	 * chunks so that RCU grace periods pass; each run counts 'entered'
	 */
	for (i = 0; n > 1 && i < n; i += k) {
		/* a discarded record keeps its room until it is consumed */
		k = repeatable(type) && !soak_ring ?
		    (n - i < FLOOD_CHUNK ? n - i : FLOOD_CHUNK) : 1;
		if (try_run(prog, type, repeatable(type) ? k : 0, &ret))
			errs++;
		else if (ret == TAKE_FAILED || (type != BPF_PROG_TYPE_TRACING && ret != VAL))
			wrong++;
		if (soak_ring && ring_buffer__consume(soak_ring))
			wrong++;	/* an error, or a record submitted */
	}
	if (n > 1) {
		soak_log("soak: %s: %d throws, %d run errors, %d other results\n",
			 bpf_program__name(prog), n, errs, wrong);
		ASSERT_EQ(errs, 0, "soak: runs that failed");
		ASSERT_EQ(wrong, 0, "soak: runs that did not throw VAL");
	}
	ASSERT_EQ(skel->bss->entered, entered + n, "ran up to the throw");
	return ASSERT_EQ(skel->bss->after_throw, 0, "nothing ran after the throw");
}

/* What a probe program reads */
static long probe(struct exceptions_cleanup_kinds *skel, struct bpf_program *prog)
{
	skel->bss->count = -1;
	skel->bss->err = 0;
	run(prog, bpf_program__type(prog), 0);
	ASSERT_OK(skel->bss->err, bpf_program__name(prog));
	return skel->bss->count;
}

/* Probe, throw, probe: the object's counter must be back */
static void counter_back(struct exceptions_cleanup_kinds *skel, struct bpf_program *probe_prog,
			 struct bpf_program *throw_prog, const char *what)
{
	long before, after;

	before = probe(skel, probe_prog);
	if (!ASSERT_GE(before, 0, what))
		return;
	if (!run_throw(skel, throw_prog))
		return;
	after = probe(skel, probe_prog);
	ASSERT_EQ(after, before, what);
}

/* ---- bpf_throw from each kind of program ---- */

static int count_sample(void *ctx, void *data, size_t size)
{
	(*(int *)ctx)++;
	return 0;
}

static void test_prog_types(void)
{
	static const char * const progs[] = {
		"rb_probe", "tc_throw", "xdp_throw", "fentry_throw", "syscall_throw",
		"socket_throw", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	struct ring_buffer *ringbuf = NULL;
	struct bpf_program *cases[5];
	struct bpf_link *link = NULL;
	int i, samples = 0;

	if (!skel)
		return;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), count_sample, &samples, NULL);
	if (!ASSERT_OK_PTR(ringbuf, "ring_buffer__new"))
		goto out;
	soak_ring = ringbuf;
	cases[0] = skel->progs.tc_throw;
	cases[1] = skel->progs.xdp_throw;
	cases[2] = skel->progs.fentry_throw;
	cases[3] = skel->progs.syscall_throw;
	cases[4] = skel->progs.socket_throw;
	link = bpf_program__attach(skel->progs.fentry_throw);
	if (!ASSERT_OK_PTR(link, "attach fentry"))
		goto out;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!run_throw(skel, cases[i]))
			continue;
		/* The record it held was discarded: consuming skips it, no
		 * sample is seen, and then the whole ring can be reserved.
		 */
		ASSERT_EQ(ring_buffer__consume(ringbuf), 0, "records consumed");
		ASSERT_EQ(samples, 0, "records submitted");
		ASSERT_EQ(run(skel->progs.rb_probe, BPF_PROG_TYPE_SCHED_CLS, 0), 1,
			  bpf_program__name(cases[i]));
		/* and the probe's discarded record is consumed in turn */
		ring_buffer__consume(ringbuf);
	}
out:
	soak_ring = NULL;
	bpf_link__destroy(link);
	ring_buffer__free(ringbuf);
	exceptions_cleanup_kinds__destroy(skel);
}

/* A kprobe cannot be test-run: the test run of trigger_fentry calls
 * bpf_fentry_test2, where kprobe_throw is attached.
 */
static void test_kprobe(void)
{
	static const char * const progs[] = {
		"rb_probe", "kprobe_throw", "trigger_fentry", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	struct ring_buffer *ringbuf = NULL;
	int samples = 0;

	if (!skel)
		return;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), count_sample, &samples, NULL);
	if (!ASSERT_OK_PTR(ringbuf, "ring_buffer__new"))
		goto out;
	skel->bss->pid = getpid();
	if (!ASSERT_OK(exceptions_cleanup_kinds__attach(skel), "attach"))
		goto out;
	run(skel->progs.trigger_fentry, BPF_PROG_TYPE_TRACING, 0);
	ASSERT_OK(skel->bss->err, "reserve");
	ASSERT_EQ(skel->bss->entered, 1, "ran up to the throw");
	ASSERT_EQ(skel->bss->after_throw, 0, "nothing ran after the throw");
	ASSERT_EQ(ring_buffer__consume(ringbuf), 0, "records consumed");
	ASSERT_EQ(samples, 0, "records submitted");
	ASSERT_EQ(run(skel->progs.rb_probe, BPF_PROG_TYPE_SCHED_CLS, 0), 1, "kprobe_throw");
out:
	ring_buffer__free(ringbuf);
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- Memory stays flat over FLOOD throws ---- */

static long meminfo_kb(const char *field)
{
	char line[128];
	long v = -1;
	FILE *f;

	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)) && line[strlen(field)] == ':')
			v = atol(line + strlen(field) + 1);
	fclose(f);
	return v;
}

/* Give the slab back what KASAN's quarantine holds: shrinking a cache
 * frees its quarantined objects (kasan_cache_shrink()). Without KASAN
 * there is no quarantine; kernels without /sys/kernel/slab (SLUB_TINY)
 * cannot have KASAN.
 */
static void drain_quarantine(void)
{
	char path[320];
	struct dirent *e;
	DIR *d;
	int fd;

	d = opendir("/sys/kernel/slab");
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, "1", 1) != 1)
			ASSERT_OK(-errno, path);
		close(fd);
	}
	closedir(d);
}

/* @field of /proc/meminfo once frees in flight have landed: objects
 * dropped by bpf_obj_drop() or a throw are freed after an RCU tasks trace
 * grace period, and with KASAN they then wait in its quarantine.
 */
static long settled_kb(const char *field)
{
	kern_sync_rcu();
	usleep(100000);
	kern_sync_rcu();
	drain_quarantine();
	return meminfo_kb(field);
}

/* Wait, up to FLOOD_SETTLE_MS, for @field to fall below @limit, and return
 * it with how long that took in @ms. The frees of a long test run queue
 * up behind RCU tasks trace grace periods, which take seconds on a
 * KASAN kernel under TCG, and bpf_mem_alloc starts the next batch only
 * when its cache is used again: each round runs @prog a few times (not
 * observed) for that. What was leaked never comes back.
 */
static long settle_below(struct bpf_program *prog, const char *field, long limit, int *ms)
{
	__u64 start = get_time_ns();
	long v;

	for (;;) {
		v = settled_kb(field);
		*ms = (get_time_ns() - start) / 1000000;
		if (v < limit || *ms >= FLOOD_SETTLE_MS)
			return v;
		run(prog, BPF_PROG_TYPE_SCHED_CLS, FLOOD_NUDGE);
	}
}

/* Run @prog until @field is flat, and return how many runs that took:
 * the allocators' caches fill up first. Once flat, what the measured runs
 * add is what they leak; a leak never gets flat, and the measured runs
 * show it.
 */
static int warm_up(struct bpf_program *prog, const char *field)
{
	int i, runs = 0;
	long b;

	for (i = 0; i < FLOOD_WARMUP_MAX; i++) {
		b = settled_kb(field);
		run(prog, BPF_PROG_TYPE_SCHED_CLS, FLOOD / 5);
		runs += FLOOD / 5;
		if (settled_kb(field) - b < FLOOD_SLACK_KB / 4)
			break;
	}
	return runs;
}

static int live_objects(int map_fd)
{
	__u64 key, next;
	int n = 0;

	if (bpf_map_get_next_key(map_fd, NULL, &next))
		return 0;
	do {
		key = next;
		n++;
	} while (!bpf_map_get_next_key(map_fd, &key, &next));
	return n;
}

/* FLOOD throws, each holding an object of one kind. Two checks: that each
 * release got an object the program took and still held (its address,
 * seen by the observers @obs_new and @obs_release), and a memory bound from above: a leak of
 * every object grows @field by 6 MiB or more, a flat run by less than
 * FLOOD_SLACK_KB. The first catches an object released twice while
 * another leaks; the second what happens after the release.
 */
static void flood(const char *prog_name, const char *field, const char *obs_new,
		  const char *obs_release, bool percpu)
{
	const char * const progs[] = { prog_name, obs_new, obs_release, NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	struct bpf_program *prog;
	long before, after;
	int thrown, warmup, ms, i;

	if (!skel)
		return;
	skel->bss->pid = getpid();
	skel->bss->flood_percpu = percpu;
	if (!ASSERT_OK(exceptions_cleanup_kinds__attach(skel), "attach"))
		goto out;
	prog = bpf_object__find_program_by_name(skel->obj, prog_name);
	warmup = warm_up(prog, field);
	before = settled_kb(field);
	thrown = skel->bss->entered;
	skel->bss->observe = true;
	for (i = 0; i < FLOOD / FLOOD_CHUNK; i++)
		run(prog, BPF_PROG_TYPE_SCHED_CLS, FLOOD_CHUNK);
	skel->bss->observe = false;
	thrown = skel->bss->entered - thrown;
	after = settle_below(prog, field, before + FLOOD_SLACK_KB, &ms);
	/* the allocator may fail a few times when its caches run dry: those
	 * runs threw nothing held, but nearly all runs must have thrown
	 */
	ASSERT_GE(thrown, FLOOD - FLOOD / 10, "runs that threw holding the object");
	ASSERT_EQ(skel->bss->acquired, thrown, "objects taken, as the observer saw them");
	ASSERT_EQ(skel->bss->released, skel->bss->acquired, "taken objects released");
	ASSERT_EQ(skel->bss->stray, 0, "releases of an object not held");
	ASSERT_EQ(skel->bss->untracked, 0, "objects the observer could not track");
	ASSERT_EQ(skel->bss->wrong_flavour, 0, "percpu objects dropped as plain or back");
	ASSERT_EQ(live_objects(bpf_map__fd(skel->maps.live)), 0, "objects never released");
	if (ASSERT_GT(before, 0, field))
		ASSERT_LT(after - before, FLOOD_SLACK_KB, field);
	ASSERT_EQ(skel->bss->after_throw, 0, "nothing ran after the throws");
	printf("%s: %s %ld kB -> %ld kB over %d runs (settled in %d ms)\n",
	       prog_name, field, before, after, FLOOD, ms);
	printf("%s: %d threw holding it, %llu released, %d warm-up runs\n",
	       prog_name, thrown, (unsigned long long)skel->bss->released, warmup);
out:
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- Tasks, and the iterators that hold tasks ---- */

static pid_t sleeper(void)
{
	pid_t child = fork();

	if (child == 0) {
		pause();
		_exit(0);
	}
	return child;
}

static void reap(pid_t child)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static void test_task(void)
{
	static const char * const progs[] = {
		"task_rcu_users", "task_usage", "mm_users", "task_throw",
		"task_acquire_throw", "task_vma_iter_throw", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	pid_t child;

	if (!skel)
		return;
	child = sleeper();
	if (!ASSERT_GT(child, 0, "fork"))
		goto out;
	skel->bss->pid = child;
	counter_back(skel, skel->progs.task_rcu_users, skel->progs.task_throw,
		     "task rcu_users after task_throw");
	counter_back(skel, skel->progs.task_rcu_users, skel->progs.task_acquire_throw,
		     "task rcu_users after task_acquire_throw");
	counter_back(skel, skel->progs.task_usage, skel->progs.task_vma_iter_throw,
		     "task usage after task_vma_iter_throw");
	counter_back(skel, skel->progs.mm_users, skel->progs.task_vma_iter_throw,
		     "mm_users after task_vma_iter_throw");
	reap(child);
out:
	exceptions_cleanup_kinds__destroy(skel);
}

#define CG_PARENT "/exc_kinds"
#define CG_CHILD CG_PARENT "/c"

/* Where cgroup_helpers puts @rel */
static void cg_path(const char *rel, char *buf, size_t n)
{
	snprintf(buf, n, "/mnt/cgroup-test-work-dir%d%s", getpid(), rel);
}

/* A cgroup2 directory's inode number is the cgroup id (get_cgroup_id()
 * needs name_to_handle_at(), which the test kernel does not have)
 */
static __u64 cg_id(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	cg_path(rel, path, sizeof(path));
	return stat(path, &st) ? 0 : st.st_ino;
}

/* A cgroup with no controllers, so that nothing but references keeps a
 * removed one around.
 */
static bool make_cgroups(void)
{
	int fd;

	if (!ASSERT_OK(setup_cgroup_environment(), "setup_cgroup_environment"))
		return false;
	fd = create_and_get_cgroup(CG_PARENT);
	if (!ASSERT_GE(fd, 0, CG_PARENT))
		return false;
	close(fd);
	fd = create_and_get_cgroup(CG_CHILD);
	if (!ASSERT_GE(fd, 0, CG_CHILD))
		return false;
	close(fd);
	return true;
}

static void test_css_task_iter(void)
{
	static const char * const progs[] = { "task_usage", "css_task_iter_throw", NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	pid_t child = -1;
	char pid_s[16];

	if (!skel)
		return;
	if (!make_cgroups())
		goto out;
	child = sleeper();
	if (!ASSERT_GT(child, 0, "fork"))
		goto out;
	snprintf(pid_s, sizeof(pid_s), "%d", child);
	skel->bss->cgid = cg_id(CG_CHILD);
	skel->bss->pid = child;
	if (!ASSERT_OK(write_cgroup_file(CG_CHILD, "cgroup.procs", pid_s), "move child"))
		goto out;
	counter_back(skel, skel->progs.task_usage, skel->progs.css_task_iter_throw,
		     "task usage after css_task_iter_throw");
out:
	if (child > 0)
		reap(child);
	cleanup_cgroup_environment();
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- Cgroups: a removed cgroup is freed only if no reference is left ---- */

static long dying_descendants(void)
{
	char path[PATH_MAX], line[128];
	long v = -1;
	FILE *f;

	cg_path(CG_PARENT "/cgroup.stat", path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "nr_dying_descendants %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static void test_cgroup(void)
{
	static const char * const progs[] = {
		"cgroup_throw", "cgroup_acquire_throw", "cgroup_ancestor_throw", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	long dying = -1;
	int i;

	if (!skel)
		return;
	if (!make_cgroups())
		goto out;
	skel->bss->cgid = cg_id(CG_CHILD);
	/* three references taken three ways, each dropped by a throw: one
	 * left would keep the cgroup from being freed
	 */
	if (!run_throw(skel, skel->progs.cgroup_throw) ||
	    !run_throw(skel, skel->progs.cgroup_acquire_throw) ||
	    !run_throw(skel, skel->progs.cgroup_ancestor_throw))
		goto out;
	remove_cgroup(CG_CHILD);
	/* freeing a removed cgroup takes RCU grace periods and work items */
	for (i = 0; i < 100; i++) {
		dying = dying_descendants();
		if (dying == 0)
			break;
		usleep(100000);
	}
	ASSERT_EQ(dying, 0, "removed cgroup freed (nr_dying_descendants)");
out:
	cleanup_cgroup_environment();
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- Objects kept in a map: bpf_cpumask, bpf_crypto_ctx ---- */

static void test_kept(const char *setup, const char *usage, const char *throw_name)
{
	const char * const progs[] = { setup, usage, throw_name, NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);

	if (!skel)
		return;
	probe(skel, bpf_object__find_program_by_name(skel->obj, setup));
	counter_back(skel, bpf_object__find_program_by_name(skel->obj, usage),
		     bpf_object__find_program_by_name(skel->obj, throw_name), usage);
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- Network objects, in a network namespace of their own ---- */

static int enter_netns(void)
{
	int old = open("/proc/self/ns/net", O_RDONLY);

	if (!ASSERT_GE(old, 0, "open netns"))
		return -1;
	if (!ASSERT_OK(unshare(CLONE_NEWNET), "unshare netns") ||
	    !ASSERT_OK(system("ip link set dev lo up"), "lo up")) {
		close(old);
		return -1;
	}
	return old;
}

static void leave_netns(int old)
{
	if (old < 0)
		return;
	ASSERT_OK(setns(old, CLONE_NEWNET), "restore netns");
	close(old);
}

static __u16 local_port(int fd)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);

	if (getsockname(fd, (struct sockaddr *)&sin, &len))
		return 0;
	return ntohs(sin.sin_port);
}

/* Wait up to 5 s for the socket's refcount to come back to @want */
static void sk_refcnt_settles(struct exceptions_cleanup_kinds *skel, long want,
			      const char *what)
{
	long now = -1;
	int i;

	for (i = 0; i < 50; i++) {
		kern_sync_rcu();
		now = probe(skel, skel->progs.sk_refcnt);
		if (now == want)
			break;
		usleep(100000);
	}
	ASSERT_EQ(now, want, what);
}

static void test_socket(void)
{
	static const char * const progs[] = {
		"sk_refcnt", "sk_lookup_throw", "skc_lookup_throw", "sockmap_lookup_throw",
		"sk_cast_throw", "sk_cast_first_throw", "sk_btf_cast_throw",
		"sockhash_lookup_throw", "udp_lookup", "udp_lookup_throw",
		"obs_udp_release", "obs_sk_destruct", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	int srv = -1, cli = -1, acc = -1, udp = -1, old, i, zero = 0;
	long base;
	struct linger lin = { .l_onoff = 1, .l_linger = 0 };

	if (!skel)
		return;
	old = enter_netns();
	if (old < 0)
		goto out;
	if (!ASSERT_OK(exceptions_cleanup_kinds__attach(skel), "attach destructor observer"))
		goto out;
	srv = start_server(AF_INET, SOCK_STREAM, "127.0.0.1", 0, 0);
	if (!ASSERT_GE(srv, 0, "start_server"))
		goto out;
	cli = connect_to_fd(srv, 0);
	if (!ASSERT_GE(cli, 0, "connect"))
		goto out;
	acc = accept(srv, NULL, NULL);
	if (!ASSERT_GE(acc, 0, "accept"))
		goto out;
	/* an incoming packet of the connection finds the accepted socket */
	skel->bss->tuple.ipv4.saddr = htonl(INADDR_LOOPBACK);
	skel->bss->tuple.ipv4.daddr = htonl(INADDR_LOOPBACK);
	skel->bss->tuple.ipv4.sport = htons(local_port(cli));
	skel->bss->tuple.ipv4.dport = htons(local_port(srv));

	counter_back(skel, skel->progs.sk_refcnt, skel->progs.sk_lookup_throw,
		     "socket refcount after sk_lookup_throw");
	counter_back(skel, skel->progs.sk_refcnt, skel->progs.skc_lookup_throw,
		     "socket refcount after skc_lookup_throw");
	counter_back(skel, skel->progs.sk_refcnt, skel->progs.sk_cast_throw,
		     "socket refcount after sk_cast_throw");
	counter_back(skel, skel->progs.sk_refcnt, skel->progs.sk_cast_first_throw,
		     "socket refcount after sk_cast_first_throw");
	counter_back(skel, skel->progs.sk_refcnt, skel->progs.sk_btf_cast_throw,
		     "socket refcount after sk_btf_cast_throw");
	/* the sockmap holds a reference of its own, probed with it in place */
	base = probe(skel, skel->progs.sk_refcnt);
	if (ASSERT_OK(bpf_map_update_elem(bpf_map__fd(skel->maps.socks), &zero, &acc,
					  BPF_ANY), "sockmap insert")) {
		counter_back(skel, skel->progs.sk_refcnt, skel->progs.sockmap_lookup_throw,
			     "socket refcount after sockmap_lookup_throw");
		ASSERT_OK(bpf_map_delete_elem(bpf_map__fd(skel->maps.socks), &zero),
			  "sockmap delete");
	}
	/* the deleted entry's psock drops its socket reference from an RCU
	 * work item: if that lands between the next probes, it looks like a
	 * release too many, so wait for it first
	 */
	sk_refcnt_settles(skel, base, "sockmap's psock let go of the socket");
	if (ASSERT_OK(bpf_map_update_elem(bpf_map__fd(skel->maps.sockh), &zero, &acc,
					  BPF_ANY), "sockhash insert")) {
		counter_back(skel, skel->progs.sk_refcnt, skel->progs.sockhash_lookup_throw,
			     "socket refcount after sockhash_lookup_throw");
		ASSERT_OK(bpf_map_delete_elem(bpf_map__fd(skel->maps.sockh), &zero),
			  "sockhash delete");
	}
	sk_refcnt_settles(skel, base, "sockhash's psock let go of the socket");

	/* a bound UDP socket: the throw releases the socket the lookup found */
	udp = start_server(AF_INET, SOCK_DGRAM, "127.0.0.1", 0, 0);
	if (ASSERT_GE(udp, 0, "udp server")) {
		skel->bss->utuple.ipv4.saddr = htonl(INADDR_LOOPBACK);
		skel->bss->utuple.ipv4.daddr = htonl(INADDR_LOOPBACK);
		skel->bss->utuple.ipv4.sport = htons(9);
		skel->bss->utuple.ipv4.dport = htons(local_port(udp));
		if (ASSERT_EQ(probe(skel, skel->progs.udp_lookup), 0, "udp lookup") &&
		    ASSERT_NEQ(skel->bss->udp_addr, 0, "udp socket found") &&
		    run_throw(skel, skel->progs.udp_lookup_throw))
			ASSERT_EQ(skel->bss->udp_released, throws(),
				  "the throw released the UDP socket, once");
	}

	/* reset the connection: the socket goes as soon as the last
	 * reference does
	 */
	ASSERT_OK(setsockopt(acc, SOL_SOCKET, SO_LINGER, &lin, sizeof(lin)), "SO_LINGER");
	close(acc);
	acc = -1;
	for (i = 0; i < 50 && !skel->bss->sk_freed; i++)
		usleep(100000);
	ASSERT_EQ(skel->bss->sk_freed, 1, "accepted socket freed (inet_sock_destruct)");
out:
	if (acc >= 0)
		close(acc);
	if (cli >= 0)
		close(cli);
	if (srv >= 0)
		close(srv);
	if (udp >= 0)
		close(udp);
	leave_netns(old);
	exceptions_cleanup_kinds__destroy(skel);
}

static long read_long(const char *path)
{
	char buf[32] = {};
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atol(buf) : -1;
}

#define CT_COUNT "/proc/sys/net/netfilter/nf_conntrack_count"

static void test_nf_conn(void)
{
	static const char * const progs[] = {
		"ct_alloc_throw", "ct_insert", "ct_use", "ct_lookup_throw",
		"ct_skb_lookup_throw", "ct_skb_alloc_throw", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	long before, after;
	int old;

	if (!skel)
		return;
	old = enter_netns();
	if (old < 0)
		goto out;
	skel->bss->tuple.ipv4.saddr = htonl(0x0a000001);
	skel->bss->tuple.ipv4.daddr = htonl(0x0a000002);
	skel->bss->tuple.ipv4.sport = htons(1000);
	skel->bss->tuple.ipv4.dport = htons(2000);

	/* an allocated entry that was never inserted is freed */
	before = read_long(CT_COUNT);
	if (!ASSERT_GE(before, 0, CT_COUNT))
		goto out;
	if (run_throw(skel, skel->progs.ct_alloc_throw)) {
		after = read_long(CT_COUNT);
		ASSERT_EQ(after, before, "nf_conntrack_count after ct_alloc_throw");
	}

	/* a looked up entry is put */
	probe(skel, skel->progs.ct_insert);
	ASSERT_EQ(read_long(CT_COUNT), before + 1, "entry inserted");
	counter_back(skel, skel->progs.ct_use, skel->progs.ct_lookup_throw,
		     "nf_conn use after ct_lookup_throw");
	counter_back(skel, skel->progs.ct_use, skel->progs.ct_skb_lookup_throw,
		     "nf_conn use after ct_skb_lookup_throw");
	/* an skb allocation, never inserted, is freed: the count is the
	 * inserted entry's only
	 */
	if (run_throw(skel, skel->progs.ct_skb_alloc_throw))
		ASSERT_EQ(read_long(CT_COUNT), before + 1,
			  "nf_conntrack_count after ct_skb_alloc_throw");
out:
	leave_netns(old);
	exceptions_cleanup_kinds__destroy(skel);
}

static void test_xfrm_state(void)
{
	static const char * const progs[] = { "xfrm_refcnt", "xfrm_throw", NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	int old;

	if (!skel)
		return;
	old = enter_netns();
	if (old < 0)
		goto out;
	SYS(out, "ip xfrm state add src 10.0.0.1 dst 10.0.0.2 proto esp spi 0x100 mode tunnel enc 'ecb(cipher_null)' ''");
	counter_back(skel, skel->progs.xfrm_refcnt, skel->progs.xfrm_throw,
		     "xfrm_state refcnt after xfrm_throw");
out:
	leave_netns(old);
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- bpf_key: the usage column of /proc/keys ---- */

static long key_usage(long serial)
{
	char line[256];
	long id, usage;
	FILE *f;

	f = fopen("/proc/keys", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %*s %ld", &id, &usage) == 2 && id == serial) {
			fclose(f);
			return usage;
		}
	fclose(f);
	return -1;
}

static void test_key(void)
{
	static const char * const progs[] = { "key_throw", NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	long serial, before, after;
	struct bpf_link *link = NULL;

	if (!skel)
		return;
	serial = syscall(__NR_add_key, "user", "exc_kinds", "v", 1, KEY_SPEC_PROCESS_KEYRING);
	if (!ASSERT_GT(serial, 0, "add_key"))
		goto out;
	skel->bss->key_serial = serial;
	skel->bss->pid = getpid();
	link = bpf_program__attach(skel->progs.key_throw);
	if (!ASSERT_OK_PTR(link, "attach fentry.s"))
		goto out;
	before = key_usage(serial);
	if (!ASSERT_GT(before, 0, "key usage in /proc/keys"))
		goto out;
	/* the test run calls bpf_fentry_test1(), which runs key_throw */
	if (run_throw(skel, skel->progs.key_throw)) {
		after = key_usage(serial);
		ASSERT_EQ(after, before, "key usage after key_throw");
	}
out:
	bpf_link__destroy(link);
	if (serial > 0)
		syscall(__NR_keyctl, KEYCTL_INVALIDATE, serial);
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- hid_bpf_ctx: the HID device's reference count ---- */

#define HID_VENDOR 0x0eb9
#define HID_PRODUCT 0x0f00

/* A one-button mouse */
static const __u8 rdesc[] = {
	0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x09, 0x01, 0xa1, 0x00,
	0x05, 0x09, 0x19, 0x01, 0x29, 0x01, 0x15, 0x00, 0x25, 0x01,
	0x95, 0x01, 0x75, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x07,
	0x81, 0x01, 0xc0, 0xc0,
};

static int uhid_create(void)
{
	struct uhid_event ev = { .type = UHID_CREATE2 };
	int fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	strcpy((char *)ev.u.create2.name, "exc-kinds");
	memcpy(ev.u.create2.rd_data, rdesc, sizeof(rdesc));
	ev.u.create2.rd_size = sizeof(rdesc);
	ev.u.create2.bus = BUS_USB;
	ev.u.create2.vendor = HID_VENDOR;
	ev.u.create2.product = HID_PRODUCT;
	if (write(fd, &ev, sizeof(ev)) != sizeof(ev)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

/* The id of our device, from its name 0003:0EB9:0F00.<id> */
static int hid_device_id(void)
{
	char prefix[32];
	struct dirent *d;
	int id = -1;
	DIR *dir;

	snprintf(prefix, sizeof(prefix), "0003:%04X:%04X.", HID_VENDOR, HID_PRODUCT);
	dir = opendir("/sys/bus/hid/devices");
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, prefix, strlen(prefix)))
			id = strtol(d->d_name + strlen(prefix), NULL, 16);
	closedir(dir);
	return id;
}

static void test_hid(void)
{
	static const char * const progs[] = { "hid_refcnt", "hid_throw", NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	int fd, id = -1, i;

	if (!skel)
		return;
	fd = uhid_create();
	if (!ASSERT_GE(fd, 0, "uhid create"))
		goto out;
	/* uhid adds the device from a work item */
	for (i = 0; i < 50 && id < 0; i++) {
		id = hid_device_id();
		if (id < 0)
			usleep(100000);
	}
	if (!ASSERT_GE(id, 0, "HID device id"))
		goto close;
	skel->bss->hid_id = id;
	counter_back(skel, skel->progs.hid_refcnt, skel->progs.hid_throw,
		     "HID device refcount after hid_throw");
close:
	close(fd);
out:
	exceptions_cleanup_kinds__destroy(skel);
}

/* Load a tc program that takes the kptr out of @map_fd's value and keeps
 * it; returns the verifier's log in @log.
 */
static int load_kptr_taker(int map_fd, char *log, size_t log_sz)
{
	struct bpf_insn insns[] = {
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_LD_MAP_FD(BPF_REG_1, map_fd),
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
		BPF_MOV64_IMM(BPF_REG_2, 0),
		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_kptr_xchg),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = log_sz,
		    .log_level = 1);

	return bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "kptr_taker", "GPL", insns,
			     ARRAY_SIZE(insns), &opts);
}

/* ---- struct file: the exe file's count, read in an LSM program ---- */

/* Run the file_open programs in @mode by opening a file */
static void trigger_file_open(struct exceptions_cleanup_kinds *skel, int mode)
{
	int fd;

	skel->bss->lsm_mode = mode;
	fd = open("/proc/self/stat", O_RDONLY);
	if (fd >= 0)
		close(fd);
	skel->bss->lsm_mode = 0;
}

static void test_file(void)
{
	static const char * const progs[] = { "exe_file_count", "exe_file_throw", NULL };
	struct exceptions_cleanup_kinds *skel = open_with(progs);
	long before;

	if (!skel)
		return;
	if (!ASSERT_OK(exceptions_cleanup_kinds__attach(skel), "attach LSM programs"))
		goto out;
	skel->bss->pid = getpid();
	trigger_file_open(skel, 1);
	before = skel->bss->count;
	if (!ASSERT_GE(before, 0, "exe file count") || !ASSERT_OK(skel->bss->err, "probe"))
		goto out;
	trigger_file_open(skel, 2);
	ASSERT_EQ(skel->bss->entered, 1, "ran up to the throw");
	ASSERT_EQ(skel->bss->after_throw, 0, "nothing ran after the throw");
	skel->bss->count = -1;
	trigger_file_open(skel, 1);
	ASSERT_EQ(skel->bss->count, before, "exe file count after exe_file_throw");
out:
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- Iterators whose destroy does nothing: observers are the proof ---- */

static void test_rcu_iters(void)
{
	static const char * const progs[] = {
		"task_iter_throw", "obs_task_iter_destroy", "css_iter_throw",
		"obs_css_iter_destroy", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);

	if (!skel)
		return;
	skel->bss->pid = getpid();
	skel->bss->observe = true;
	if (!ASSERT_OK(exceptions_cleanup_kinds__attach(skel), "attach"))
		goto out;
	/* one throwing program at a time: both trace bpf_fentry_test1 */
	bpf_link__destroy(skel->links.css_iter_throw);
	skel->links.css_iter_throw = NULL;
	if (run_throw(skel, skel->progs.task_iter_throw))
		ASSERT_EQ(skel->bss->task_iter_destroy_cnt, throws(), "bpf_iter_task_cleanup calls");
	bpf_link__destroy(skel->links.task_iter_throw);
	skel->links.task_iter_throw = NULL;
	skel->links.css_iter_throw = bpf_program__attach(skel->progs.css_iter_throw);
	if (!ASSERT_OK_PTR(skel->links.css_iter_throw, "attach css_iter_throw"))
		goto out;
	if (run_throw(skel, skel->progs.css_iter_throw))
		ASSERT_EQ(skel->bss->css_iter_destroy_cnt, throws(), "bpf_iter_css_cleanup calls");
	ASSERT_OK(skel->bss->err, "css iterator");
out:
	skel->bss->observe = false;
	exceptions_cleanup_kinds__destroy(skel);
}

/* ---- sched_ext: no scheduler is loaded, so observers are the proof ---- */

static void test_scx(void)
{
	static const char * const progs[] = {
		"scx_cpumask_throw", "dsq_create", "dsq_destroy", "dsq_iter_throw",
		"obs_put_cpumask", "obs_dsq_destroy", NULL
	};
	struct exceptions_cleanup_kinds *skel = open_with(progs);

	if (!skel)
		return;
	if (!ASSERT_OK(exceptions_cleanup_kinds__attach(skel), "attach"))
		goto out;
	skel->bss->pid = getpid();
	probe(skel, skel->progs.dsq_create);
	skel->bss->observe = true;
	if (run_throw(skel, skel->progs.scx_cpumask_throw))
		ASSERT_EQ(skel->bss->put_cpumask_cnt, throws(), "scx_cpumask_cleanup calls");
	if (run_throw(skel, skel->progs.dsq_iter_throw))
		ASSERT_EQ(skel->bss->dsq_destroy_cnt, throws(), "bpf_iter_scx_dsq_destroy calls");
	skel->bss->observe = false;
	ASSERT_OK(skel->bss->err, "DSQ iterator");
	probe(skel, skel->progs.dsq_destroy);
out:
	exceptions_cleanup_kinds__destroy(skel);
}

/* BTF of 'struct <name>_val { struct <name> __kptr *p; }' and int; returns
 * the value type's id in @val_id.
 */
static struct btf *kptr_btf(const char *name, int *val_id)
{
	char val[64];
	struct btf *btf = btf__new_empty();
	int obj, ptr;

	if (!btf)
		return NULL;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	obj = btf__add_struct(btf, name, 0);
	ptr = btf__add_ptr(btf, btf__add_type_tag(btf, "kptr", obj));
	snprintf(val, sizeof(val), "%s_val", name);
	*val_id = btf__add_struct(btf, val, sizeof(void *));
	btf__add_field(btf, "p", ptr, 0, 0);
	return btf;
}

/* A cleanup destructor does not make a type a kptr, only a kptr
 * destructor does: the kernel refuses BTF with a map value type holding
 * an nf_conn kptr (it has a cleanup destructor only), and takes one
 * holding a bpf_cpumask (it has both), whose map a program can take the
 * kptr from: the load then fails only because the program keeps it.
 */
static void test_kptr_cleanup_only(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	struct btf *btf;
	int val_id, fd, prog;
	char log[8192] = {};

	btf = kptr_btf("nf_conn", &val_id);
	if (!ASSERT_OK_PTR(btf, "nf_conn BTF"))
		return;
	ASSERT_EQ(btf__load_into_kernel(btf), -ENOENT, "load BTF with an nf_conn kptr");
	btf__free(btf);

	btf = kptr_btf("bpf_cpumask", &val_id);
	if (!ASSERT_OK_PTR(btf, "bpf_cpumask BTF"))
		return;
	if (!ASSERT_OK(btf__load_into_kernel(btf), "load BTF with a bpf_cpumask kptr"))
		goto out;
	opts.btf_fd = btf__fd(btf);
	opts.btf_key_type_id = 1;
	opts.btf_value_type_id = val_id;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "masks", sizeof(int), sizeof(void *), 1, &opts);
	if (!ASSERT_GE(fd, 0, "map of bpf_cpumask kptrs"))
		goto out;
	prog = load_kptr_taker(fd, log, sizeof(log));
	ASSERT_LT(prog, 0, "program keeping a bpf_cpumask loads");
	if (!ASSERT_OK_PTR(strstr(log, "Unreleased reference"), "taking the bpf_cpumask kptr"))
		printf("verifier log:\n%s\n", log);
	if (prog >= 0)
		close(prog);
	close(fd);
out:
	btf__free(btf);
}

/* Each subtest on its own, so that EXC_FAULTS=throw names the one whose
 * throw allocated
 */
#define KIND(name, call)					\
	do {							\
		if (test__start_subtest(name)) {		\
			bool counted = exc_fi_throw_begin();	\
								\
			call;					\
			exc_fi_throw_end(counted);		\
		}						\
	} while (0)

void test_exceptions_cleanup_kinds(void)
{
	KIND("prog_types", test_prog_types());
	KIND("kprobe", test_kprobe());
	KIND("obj_flood", flood("obj_throw", "Slab", "obs_obj_new", "obs_obj_drop", false));
	KIND("percpu_obj_flood",
	     flood("percpu_obj_throw", "Percpu", "obs_percpu_obj_new", "obs_obj_drop", true));
	KIND("bits_iter_flood",
	     flood("bits_iter_throw", "Slab", "obs_bits_new", "obs_bits_destroy", false));
	KIND("task", test_task());
	KIND("css_task_iter", test_css_task_iter());
	KIND("cgroup", test_cgroup());
	KIND("cpumask", test_kept("cpumask_setup", "cpumask_usage", "cpumask_throw"));
	KIND("crypto_ctx", test_kept("crypto_setup", "crypto_usage", "crypto_throw"));
	KIND("socket", test_socket());
	KIND("nf_conn", test_nf_conn());
	KIND("xfrm_state", test_xfrm_state());
	KIND("bpf_key", test_key());
	KIND("hid_ctx", test_hid());
	KIND("file", test_file());
	KIND("rcu_iters", test_rcu_iters());
	KIND("scx", test_scx());
	KIND("kptr_cleanup_only", test_kptr_cleanup_only());
}
