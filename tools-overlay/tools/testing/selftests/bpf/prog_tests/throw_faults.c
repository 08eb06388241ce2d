// SPDX-License-Identifier: GPL-2.0
/* Allocation failures while loading a throwing program ('just faults', on
 * the hardened kernel). Every program that calls bpf_throw in the objects
 * of the exception suites is loaded once as a reference, then again with
 * each allocation under bpf_prog_load() failing in turn (fail-nth), and
 * with failslab and fail_page_alloc failing at random (task-filter, this
 * thread only). Each faulted load must end as the reference did, or with
 * -ENOMEM, or -ENOTSUPP when the JIT could not get memory (the kernel has
 * BPF_JIT_ALWAYS_ON); a program the verifier rejects must never load.
 * KASAN, kmemleak and lockdep watch the error paths (ci/faults); the
 * release itself under faulted loads and the throw's own allocations are
 * checked by exceptions_cleanup and exceptions_cleanup_kinds with
 * EXC_FAULTS=load and EXC_FAULTS=throw.
 * Knobs: EXC_FAULTS_SITES=K tries K sites per program, spread evenly from
 * a random start (EXC_FAULTS_SEED; 0, the default: all sites),
 * EXC_FAULTS_ROUNDS=R random loads per probability (default 8),
 * EXC_FAULTS_OBJS and EXC_FAULTS_PROGS (comma lists) narrow the objects
 * and programs, EXC_FAULTS_LOG=FILE gets one line per program.
 */
#include <stdarg.h>
#include <test_progs.h>
#include <bpf/btf.h>
#include <network_helpers.h>

#include "exc_faults.h"

/* the kernel's errno when a program that needs the JIT was not JITed */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

static const char * const objs[] = {
	"exceptions.bpf.o",
	"exceptions_fail.bpf.o",
	"exceptions_reach.bpf.o",
	"exceptions_cleanup.bpf.o",
	"exceptions_cleanup_fail.bpf.o",
	"exceptions_cleanup_kinds.bpf.o",
	"exceptions_cleanup_safety.bpf.o",
};

/* the "high" probability the load is made under, then a lower one that
 * lets loads get further before the first failure
 */
static const unsigned int probs[] = { 50, 5 };

#define LOG_SIZE (1 << 20)

enum fi_mode { FI_NONE, FI_COUNT, FI_NTH, FI_PROB };

struct attempt {
	int err;
	unsigned int left;	/* fail-nth left over (FI_COUNT, FI_NTH) */
	char msg[200];		/* the verifier's last word on a failed load */
};

struct tally {
	int sites;		/* allocations under bpf_prog_load() */
	int tried, enomem, enotsupp, same, loaded, not_hit;
	int probe;		/* libbpf's own trivial load failed first */
	int bad;
};

static char *log_buf;
static int throw_btf_id;
/* allocations of libbpf's trivial load that opens each bpf_object__load() */
static int probe_sites;
/* libbpf's first warning during a load: why a load failed in user space */
static char libbpf_said[160];

static int capture_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	char line[sizeof(libbpf_said)];
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(line, sizeof(line), fmt, args);
	n = strlen(line);
	if (n && line[n - 1] == '\n')
		line[n - 1] = 0;
	if (!libbpf_said[0] && n > 1 && !strstr(line, "-- BEGIN"))
		memcpy(libbpf_said, line, sizeof(line));
	return 0;
}

static int env_int(const char *name, int def)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : def;
}

/* Is @name in the comma list $@var (or is $@var unset)? */
static bool env_has(const char *var, const char *name)
{
	const char *s = getenv(var), *p;
	size_t n = strlen(name);

	if (!s || !*s)
		return true;
	for (p = s; (p = strstr(p, name)); p += n)
		if ((p == s || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Is site @nth in the comma list $EXC_FAULTS_NTH (or is it unset)? */
static bool env_site(unsigned int nth)
{
	char name[16];

	snprintf(name, sizeof(name), "%u", nth);
	return env_has("EXC_FAULTS_NTH", name);
}

static bool calls_throw(const struct bpf_program *prog)
{
	const struct bpf_insn *insn = bpf_program__insns(prog);
	size_t i, n = bpf_program__insn_cnt(prog);

	for (i = 0; i < n; i++)
		if (insn[i].code == (BPF_JMP | BPF_CALL) &&
		    insn[i].src_reg == BPF_PSEUDO_KFUNC_CALL && insn[i].imm == throw_btf_id)
			return true;
	return false;
}

/* The line of the log that says why the load failed: the last one but
 * the statistics
 */
static void last_word(const char *log, char *msg, size_t size)
{
	const char *p = log, *nl, *best = NULL;
	size_t len = 0;

	for (; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (nl > p && strncmp(p, "processed ", 10) && strncmp(p, "verification time", 17) &&
		    strncmp(p, "stack depth", 11)) {
			best = p;
			len = nl - p;
		}
		if (!*nl)
			break;
	}
	snprintf(msg, size, "%.*s", best ? (int)len : 0, best ?: "");
}

static void fi_arm(enum fi_mode mode, unsigned int arg)
{
	switch (mode) {
	case FI_COUNT:
		exc_fi_nth(EXC_FI_COUNT);
		break;
	case FI_NTH:
		if (getenv("EXC_FAULTS_VERBOSE")) {
			char m[32];

			/* which load a stack dump or a trace belongs to */
			snprintf(m, sizeof(m), "throw_faults: nth %u\n", arg);
			exc_fi_write("/sys/kernel/tracing/trace_marker", m);
			exc_fi_write("/dev/kmsg", m);
		}
		exc_fi_nth(arg);
		break;
	case FI_PROB:
		exc_fi_prob(arg);
		break;
	case FI_NONE:
		break;
	}
}

static void fi_disarm(enum fi_mode mode, struct attempt *a)
{
	a->left = 0;
	if (mode == FI_COUNT || mode == FI_NTH)
		exc_fi_nth_end(&a->left);
	else if (mode == FI_PROB)
		exc_fi_prob_end();
}

/* Load program @name of @file alone, under fault mode @mode; *@throws:
 * whether it calls bpf_throw (after libbpf's relocations)
 */
static int load_prog(const char *file, const char *name, enum fi_mode mode, unsigned int arg,
		     struct attempt *a, bool *throws)
{
	struct bpf_program *p, *prog = NULL;
	libbpf_print_fn_t old;
	struct bpf_object *obj;

	obj = bpf_object__open_file(file, NULL);
	if (!ASSERT_OK_PTR(obj, file))
		return -1;
	bpf_object__for_each_program(p, obj) {
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
		if (!strcmp(bpf_program__name(p), name))
			prog = p;
	}
	if (!ASSERT_OK_PTR(prog, name)) {
		bpf_object__close(obj);
		return -1;
	}
	/* A log from the start: with level 0 libbpf would load again to get
	 * one, and that second load would hide the first one's error.
	 */
	log_buf[0] = 0;
	bpf_program__set_log_buf(prog, log_buf, LOG_SIZE);
	bpf_program__set_log_level(prog, 1);
	libbpf_said[0] = 0;
	old = libbpf_set_print(capture_print);
	fi_arm(mode, arg);
	a->err = bpf_object__load(obj);
	fi_disarm(mode, a);
	libbpf_set_print(old);
	last_word(log_buf, a->msg, sizeof(a->msg));
	if (a->err && !a->msg[0])
		snprintf(a->msg, sizeof(a->msg), "libbpf: %s", libbpf_said);
	if (throws)
		*throws = calls_throw(prog);
	bpf_object__close(obj);
	return 0;
}

/* Is @a, a load under faults, an outcome the reference @ref allows? */
static bool judge(const struct attempt *ref, const struct attempt *a, struct tally *t)
{
	if (a->err == 0 && ref->err == 0) {
		t->loaded++;
		return true;
	}
	if (a->err == -ENOMEM) {
		t->enomem++;
		return true;
	}
	if (a->err == -ENOTSUPP && ref->err == 0) {
		t->enotsupp++;
		return true;
	}
	/* libbpf reports the failure of its trivial probe load as its
	 * fallback's -EINVAL (a tracepoint program, which this kernel lacks)
	 */
	if (strstr(a->msg, "bpf_object__probe_loading")) {
		t->probe++;
		return true;
	}
	if (a->err == ref->err && !strcmp(a->msg, ref->msg)) {
		t->same++;
		return true;
	}
	t->bad++;
	return false;
}

/* A finding (@fail) or a note, in the test's output and in the log */
static void report(FILE *log, bool fail, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (fail)
		test__fail();
	printf("%s", fail ? "FAULTS UNEXPECTED: " : "faults note: ");
	vprintf(fmt, ap);
	va_end(ap);
	if (log) {
		va_start(ap, fmt);
		fprintf(log, "%s", fail ? "unexpected: " : "note: ");
		vfprintf(log, fmt, ap);
		va_end(ap);
	}
}

static void fault_prog(const char *file, const char *name, const struct attempt *ref,
		       FILE *log)
{
	int i, k, r, n, sites = env_int("EXC_FAULTS_SITES", 0);
	int rounds = env_int("EXC_FAULTS_ROUNDS", 8);
	struct tally t = {};
	struct attempt a;
	unsigned int nth, start;
	int own;

	if (load_prog(file, name, FI_COUNT, 0, &a, NULL))
		return;
	t.sites = EXC_FI_COUNT - a.left;
	if (!ASSERT_EQ(a.err, ref->err, "counted load ends as the reference"))
		return;
	/* the program's own allocations: after libbpf's probe load's */
	own = t.sites - probe_sites;
	n = sites > 0 && sites < own ? sites : own;
	start = n < own ? rand() % (own / n) : 0;
	for (i = 0; i < n; i++) {
		/* n sites in steps of own / n from a random start */
		nth = probe_sites + 1 + start + (long)i * own / n;
		if (!env_site(nth))
			continue;
		if (load_prog(file, name, FI_NTH, nth, &a, NULL))
			return;
		t.tried++;
		if (a.left)
			t.not_hit++;
		if (!judge(ref, &a, &t))
			report(log, true, "%s/%s: allocation %u of %d failed: load returned %d '%s'; without faults %d '%s'\n",
			       file, name, nth, t.sites, a.err, a.msg, ref->err, ref->msg);
		else if (a.err == 0 && !a.left)
			report(log, false, "%s/%s: loads though allocation %u of %d failed\n",
			       file, name, nth, t.sites);
	}
	for (k = 0; k < ARRAY_SIZE(probs); k++) {
		for (r = 0; r < rounds; r++) {
			if (load_prog(file, name, FI_PROB, probs[k], &a, NULL))
				return;
			t.tried++;
			if (!judge(ref, &a, &t))
				report(log, true, "%s/%s: at %u%%: load returned %d '%s'; without faults %d '%s'\n",
				       file, name, probs[k], a.err, a.msg, ref->err, ref->msg);
		}
	}
	if (log)
		fprintf(log, "faults: %s/%s: reference %d, %d sites, %d loads: %d loaded, %d -ENOMEM, %d -ENOTSUPP, %d as reference, %d libbpf probe, %d unexpected, %d sites not hit\n",
			file, name, ref->err, t.sites, t.tried, t.loaded, t.enomem,
			t.enotsupp, t.same, t.probe, t.bad, t.not_hit);
}

static void fault_obj(const char *file, FILE *log, int *progs)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	struct attempt ref;
	char **names = NULL;
	int i, cnt = 0;
	bool throws;

	obj = bpf_object__open_file(file, NULL);
	if (!ASSERT_OK_PTR(obj, file))
		return;
	bpf_object__for_each_program(p, obj) {
		names = realloc(names, (cnt + 1) * sizeof(*names));
		names[cnt++] = strdup(bpf_program__name(p));
	}
	bpf_object__close(obj);
	for (i = 0; i < cnt; i++) {
		if (!env_has("EXC_FAULTS_PROGS", names[i]))
			continue;
		if (load_prog(file, names[i], FI_NONE, 0, &ref, &throws) || !throws)
			continue;
		(*progs)++;
		fault_prog(file, names[i], &ref, log);
	}
	for (i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
}

/* Every throwing program, loaded under faults */
static void test_load(void)
{
	const char *path = getenv("EXC_FAULTS_LOG");
	FILE *log = NULL;
	int i, progs = 0;
	unsigned int seed;

	if (path) {
		log = fopen(path, "a");
		if (!ASSERT_OK_PTR(log, "EXC_FAULTS_LOG"))
			return;
	}
	if (!ASSERT_OK(exc_fi_setup("bpf_prog_load"), "fault injection set up"))
		goto out;
	exc_fi_set("verbose", getenv("EXC_FAULTS_VERBOSE") ?: "0");
	probe_sites = exc_fi_probe_sites();
	if (!ASSERT_GT(probe_sites, 0, "allocations of a trivial load"))
		goto out;
	seed = env_int("EXC_FAULTS_SEED", time(NULL));
	printf("EXC_FAULTS_SEED=%u\n", seed);
	srand(seed);
	for (i = 0; i < ARRAY_SIZE(objs); i++)
		if (env_has("EXC_FAULTS_OBJS", objs[i]))
			fault_obj(objs[i], log, &progs);
	/* the objects hold well over a hundred throwing programs */
	if (!getenv("EXC_FAULTS_OBJS") && !getenv("EXC_FAULTS_PROGS"))
		ASSERT_GT(progs, 100, "throwing programs loaded under faults");
	else
		ASSERT_GT(progs, 0, "throwing programs loaded under faults");
out:
	exc_fi_teardown();
	if (log)
		fclose(log);
}

/* The counting that EXC_FAULTS=throw relies on sees allocations: a tc
 * test run allocates its skb and data under bpf_prog_test_run_skb()
 */
static void test_count_control(void)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = &pkt_v4,
		.data_size_in = sizeof(pkt_v4),
		.repeat = 1,
	);
	unsigned int left = 0;
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, NULL, "GPL", insns, ARRAY_SIZE(insns), NULL);
	if (!ASSERT_GE(fd, 0, "prog load"))
		return;
	if (!ASSERT_OK(exc_fi_setup("bpf_prog_test_run_skb"), "fault injection set up"))
		goto out;
	exc_fi_nth(EXC_FI_COUNT);
	err = bpf_prog_test_run_opts(fd, &topts);
	exc_fi_nth_end(&left);
	ASSERT_OK(err, "test run");
	ASSERT_GT(EXC_FI_COUNT - left, 0, "allocations counted under bpf_prog_test_run_skb");
out:
	exc_fi_teardown();
	close(fd);
}

void test_throw_faults(void)
{
	struct btf *vmlinux;

	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "vmlinux BTF"))
		return;
	throw_btf_id = btf__find_by_name_kind(vmlinux, "bpf_throw", BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (!ASSERT_GT(throw_btf_id, 0, "bpf_throw in vmlinux BTF"))
		return;
	log_buf = malloc(LOG_SIZE);
	if (!ASSERT_OK_PTR(log_buf, "log buffer"))
		return;
	if (test__start_subtest("count_control"))
		test_count_control();
	if (test__start_subtest("load"))
		test_load();
	free(log_buf);
}
