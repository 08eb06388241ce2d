// SPDX-License-Identifier: GPL-2.0
/* Resources held when a program throws are released by bpf_throw: run each
 * case of progs/exceptions_cleanup.c and check from outside the program
 * that every resource came back, once.
 */
#include <unistd.h>
#include <test_progs.h>
#include <network_helpers.h>

#include "cgroup_helpers.h"
#include "exc_faults.h"
#include "progs/exceptions_cleanup.h"
#include "exceptions_cleanup.skel.h"
#include "exceptions_cleanup_fail.skel.h"

#define ALLOC_FAILED 1

struct exc_case {
	const char *name;	/* subtest name */
	const char *prog;	/* program to run */
	__u32 mark;		/* ctx->mark of the run (selects a path) */
	bool syscall;		/* a syscall program: run without packet */
	__u32 retval;		/* what the run returns if not the cookie */
	/* expected calls of each release function during the run */
	int discard;
	int discard_dynptr;
	int obj_drop;
	int iter_destroy;
	int task_dtor;
	int cgroup_dtor;
	int cpumask_dtor;
};

static int count_sample(void *ctx, void *data, size_t size)
{
	(*(int *)ctx)++;
	return 0;
}

static int run_tc(struct bpf_program *prog, __u32 mark, __u32 *retval)
{
	struct __sk_buff skb = { .mark = mark };

	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = &pkt_v4,
		.data_size_in = sizeof(pkt_v4),
		.ctx_in = &skb,
		.ctx_size_in = sizeof(skb),
		.repeat = 1,
	);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);
	*retval = topts.retval;
	return err;
}

static int run_syscall(struct bpf_program *prog, __u32 *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);
	*retval = topts.retval;
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Kinds in the order of enum exc_kind */
static const char * const kind_names[EXC_KINDS] = {
	"obj", "iter_num", "task", "cgroup", "cpumask",
};

/* The pointers released are the pointers acquired, as multisets: each
 * object handed out during the run came back once, and nothing else did.
 * Equal counts with unequal sets would be a wrong release.
 */
static void check_same_objects(struct exceptions_cleanup *skel)
{
	__u64 a[EXC_MAX_PTRS], r[EXC_MAX_PTRS];
	unsigned int n, i;
	int k;

	for (k = 0; k < EXC_KINDS; k++) {
		n = skel->bss->acq[k].n;
		if (!ASSERT_LE(n, EXC_MAX_PTRS, kind_names[k]) ||
		    !ASSERT_EQ(skel->bss->rel[k].n, n, kind_names[k]))
			continue;
		memcpy(a, skel->bss->acq[k].p, n * sizeof(a[0]));
		memcpy(r, skel->bss->rel[k].p, n * sizeof(r[0]));
		qsort(a, n, sizeof(a[0]), cmp_u64);
		qsort(r, n, sizeof(r[0]), cmp_u64);
		for (i = 0; i < n; i++) {
			if (a[i] == r[i])
				continue;
			PRINT_FAIL("%s: released %#llx where %#llx was acquired (%u of %u)\n",
				   kind_names[k], (unsigned long long)r[i],
				   (unsigned long long)a[i], i, n);
			break;
		}
	}
}

/* Under EXC_FAULTS=load, each program's log from the start (level 1):
 * with level 0, libbpf would load a failed program again, and that second
 * load would hide the first one's failure. Per program, not per object:
 * the object's log would also take the BTF's, which does not fit and
 * makes libbpf load the programs without BTF.
 */
static char case_log[8 << 20];

/* The end of a failed load's log, where the verifier says why */
static void case_log_tail(void)
{
	size_t n = strnlen(case_log, sizeof(case_log));
	size_t from = n > 4096 ? n - 4096 : 0;

	printf("verifier log, the last %zu of %zu bytes:\n%s\n", n - from, n, case_log + from);
}

/* The case, the probe and every observer; not the other cases */
static struct exceptions_cleanup *open_case(const struct exc_case *c,
					    struct bpf_program **prog)
{
	struct exceptions_cleanup *skel;
	struct bpf_program *p;
	bool load;

	skel = exceptions_cleanup__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return NULL;
	*prog = bpf_object__find_program_by_name(skel->obj, c->prog);
	if (!ASSERT_OK_PTR(*prog, c->prog)) {
		exceptions_cleanup__destroy(skel);
		return NULL;
	}
	bpf_object__for_each_program(p, skel->obj) {
		load = p == *prog || p == skel->progs.rb_probe ||
		       bpf_program__type(p) == BPF_PROG_TYPE_TRACING;
		bpf_program__set_autoload(p, load);
		if (load && exc_fi_mode("load")) {
			bpf_program__set_log_buf(p, case_log, sizeof(case_log));
			bpf_program__set_log_level(p, 1);
		}
	}
	return skel;
}

/* EXC_FAULTS=load: the case as loaded with one of its allocations under
 * bpf_prog_load() failing, where the load still succeeds: what it
 * released must be right all the same. Other loads must fail cleanly.
 */
static struct exceptions_cleanup *load_case_faulted(const struct exc_case *c,
						    struct bpf_program **prog)
{
	struct exceptions_cleanup *skel;
	unsigned int left, sites, nth;
	int i, err, probe;

	if (!ASSERT_OK(exc_fi_setup("bpf_prog_load"), "fault injection set up"))
		return NULL;
	probe = exc_fi_probe_sites();
	skel = open_case(c, prog);
	if (!skel)
		goto out;
	exc_fi_nth(EXC_FI_COUNT);
	err = exceptions_cleanup__load(skel);
	exc_fi_nth_end(&left);
	exceptions_cleanup__destroy(skel);
	skel = NULL;
	if (!ASSERT_OK(err, "load without faults")) {
		case_log_tail();
		goto out;
	}
	sites = EXC_FI_COUNT - left;
	for (i = 0; i < EXC_FI_LOAD_TRIES; i++) {
		skel = open_case(c, prog);
		if (!skel)
			goto out;
		nth = exc_fi_load_site(sites, probe);
		exc_fi_nth(nth);
		err = exceptions_cleanup__load(skel);
		exc_fi_nth_end(&left);
		if (!err && !left) {
			printf("faults: %s loaded though allocation %u of %u failed\n",
			       c->name, nth, sites);
			goto out;
		}
		if (!err)
			break;
		if (!ASSERT_TRUE(exc_fi_clean_err(err), "a faulted load fails with -ENOMEM")) {
			printf("%s: allocation %u of %u failed: %d\n", c->name, nth, sites, err);
			break;
		}
		exceptions_cleanup__destroy(skel);
		skel = NULL;
	}
	printf("faults: %s: no tolerated failure in %d tries\n", c->name, i);
	exceptions_cleanup__destroy(skel);
	skel = open_case(c, prog);
	if (skel && !ASSERT_OK(exceptions_cleanup__load(skel), "load")) {
		exceptions_cleanup__destroy(skel);
		skel = NULL;
	}
out:
	exc_fi_teardown();
	return skel;
}

static struct exceptions_cleanup *load_case(const struct exc_case *c,
					    struct bpf_program **prog)
{
	struct exceptions_cleanup *skel;

	if (exc_fi_mode("load"))
		return load_case_faulted(c, prog);
	skel = open_case(c, prog);
	if (skel && !ASSERT_OK(exceptions_cleanup__load(skel), "load")) {
		exceptions_cleanup__destroy(skel);
		skel = NULL;
	}
	return skel;
}

static void run_case(const struct exc_case *c)
{
	struct exceptions_cleanup *skel;
	struct ring_buffer *ringbuf = NULL;
	struct bpf_program *prog;
	int err, samples = 0;
	__u32 retval;

	skel = load_case(c, &prog);
	if (!skel)
		return;
	err = exceptions_cleanup__attach(skel);
	if (!ASSERT_OK(err, "attach observers"))
		goto out;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), count_sample,
				   &samples, NULL);
	if (!ASSERT_OK_PTR(ringbuf, "ring_buffer__new"))
		goto out;

	skel->bss->pid = getpid();
	skel->bss->cgid = 1; /* the root cgroup */
	skel->bss->observe = true;
	if (c->syscall)
		err = run_syscall(prog, &retval);
	else
		err = run_tc(prog, c->mark, &retval);
	skel->bss->observe = false;
	if (!ASSERT_OK(err, "run"))
		goto out;
	if (!ASSERT_NEQ(retval, ALLOC_FAILED, "allocation in the case failed"))
		goto out;
	ASSERT_EQ(retval, c->retval ?: VAL, "retval is the thrown cookie (or the callback's)");

	/* Skip the discarded records; none was submitted */
	err = ring_buffer__consume(ringbuf);
	ASSERT_EQ(err, 0, "records consumed");
	ASSERT_EQ(samples, 0, "records submitted");
	/* The whole ring can be reserved again: no record is left reserved */
	err = run_tc(skel->progs.rb_probe, 0, &retval);
	ASSERT_OK(err, "probe run");
	ASSERT_EQ(retval, 1, "whole ring buffer free after the throw");

	ASSERT_EQ(skel->bss->discard_cnt, c->discard, "bpf_ringbuf_discard calls");
	ASSERT_EQ(skel->bss->discard_dynptr_cnt, c->discard_dynptr,
		  "bpf_ringbuf_discard_dynptr calls");
	ASSERT_EQ(skel->bss->obj_drop_cnt, c->obj_drop, "__bpf_obj_drop_impl calls");
	ASSERT_EQ(skel->bss->iter_destroy_cnt, c->iter_destroy, "bpf_iter_num_destroy calls");
	ASSERT_EQ(skel->bss->task_dtor_cnt, c->task_dtor, "bpf_task_release_dtor calls");
	ASSERT_EQ(skel->bss->cgroup_dtor_cnt, c->cgroup_dtor, "bpf_cgroup_release_dtor calls");
	ASSERT_EQ(skel->bss->cpumask_dtor_cnt, c->cpumask_dtor,
		  "bpf_cpumask_release_dtor calls");
	check_same_objects(skel);
out:
	ring_buffer__free(ringbuf);
	exceptions_cleanup__destroy(skel);
}

/* Expected release calls, by kind; the rest are zero */
#define DISCARD(n)	.discard = (n)
#define DYNPTR(n)	.discard_dynptr = (n)
#define OBJ(n)		.obj_drop = (n)
#define ITER(n)		.iter_destroy = (n)

/* One subtest per run of a case: the program's name, and for a run with
 * ctx->mark set, the mark.
 */
#define EXC_CASE_NAMED(_name, _prog, ...)				\
	do {								\
		struct exc_case __c = { .name = _name, .prog = #_prog,	\
					__VA_ARGS__ };			\
		if (test__start_subtest(__c.name))			\
			run_case(&__c);					\
	} while (0)
#define EXC_CASE(_prog, ...) EXC_CASE_NAMED(#_prog, _prog, __VA_ARGS__)
#define EXC_CASE_MARK(_prog, _mark, ...)				\
	EXC_CASE_NAMED(#_prog "_mark" #_mark, _prog, .mark = _mark, __VA_ARGS__)

/* Load only @name of @obj; returns the load error */
static int load_one(struct bpf_object *obj, const char *name)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
	return bpf_object__load(obj);
}

static long long memcg_current(int cg_fd)
{
	char buf[32] = {};
	int fd, n;

	fd = openat(cg_fd, "memory.current", O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoll(buf) : -EIO;
}

/* Load a program with frame descriptors, and one whose descriptors
 * conflict (a failed load), many times in a memory cgroup: the cgroup is
 * charged for the descriptors, so its usage stays flat only if both paths
 * free them. A failed load leaks over 4 KiB if it does not (the scratch
 * frame), so 300 loads would show over 1 MiB.
 */
static void test_descs_freed(void)
{
	const int loads = 300, warmup = 30;
	libbpf_print_fn_t old_print;
	long long before = 0, after;
	int cg_fd, i, err;

	cg_fd = cgroup_setup_and_join("/exc_cleanup_memcg");
	if (!ASSERT_GE(cg_fd, 0, "cgroup_setup_and_join"))
		return;
	/* no verifier log for each of the failed loads */
	old_print = libbpf_set_print(NULL);
	for (i = 0; i < loads + warmup; i++) {
		struct exceptions_cleanup_fail *fail;
		struct exceptions_cleanup *ok;

		/* the first loads warm up caches */
		if (i == warmup) {
			kern_sync_rcu();
			before = memcg_current(cg_fd);
			if (!ASSERT_GT(before, 0, "memory.current"))
				break;
		}
		fail = exceptions_cleanup_fail__open();
		if (!ASSERT_OK_PTR(fail, "open fail"))
			break;
		err = load_one(fail->obj, "reject_slot_scalar7_vs_ringbuf");
		exceptions_cleanup_fail__destroy(fail);
		if (!ASSERT_ERR(err, "conflicting load fails"))
			break;
		ok = exceptions_cleanup__open();
		if (!ASSERT_OK_PTR(ok, "open ok"))
			break;
		err = load_one(ok->obj, "seven_frames");
		exceptions_cleanup__destroy(ok);
		if (!ASSERT_OK(err, "seven_frames loads"))
			break;
	}
	libbpf_set_print(old_print);
	if (i == loads + warmup) {
		/* programs and maps are freed after RCU grace periods */
		kern_sync_rcu();
		usleep(500000);
		kern_sync_rcu();
		after = memcg_current(cg_fd);
		printf("%s: memory.current %lld -> %lld over %d loads of each\n",
		       __func__, before, after, loads);
		/* memcg charges pages in per-cpu batches: allow 512 KiB */
		ASSERT_LT(after - before, 512 << 10, "memcg growth over the loads");
	}
	close(cg_fd);
	cleanup_cgroup_environment();
}

void test_exceptions_cleanup(void)
{
	bool throw_counted = exc_fi_throw_begin();

	/* Verifier cases: RUN_TESTS starts a subtest for each program */
	RUN_TESTS(exceptions_cleanup_fail);

	/* The RFC's cases */
	EXC_CASE(num_iter, ITER(1));
	EXC_CASE(num_iter_mult, ITER(3));
	EXC_CASE(dynptr_iter, DYNPTR(1), ITER(1));
	EXC_CASE(obj_unchecked, OBJ(1));
	EXC_CASE(percpu_obj_unchecked, OBJ(1));
	EXC_CASE(ringbuf_unchecked, DISCARD(1));
	EXC_CASE(ringbuf_kept, DISCARD(1));
	EXC_CASE(null_or_ptr_do_null, DISCARD(0));
	EXC_CASE(callee_saved, DISCARD(4));
	/* an object, a dynptr and a record in each of two global subprogs */
	EXC_CASE(frame_mix, OBJ(1), DYNPTR(1), DISCARD(2));
	EXC_CASE(loop_iterations, OBJ(50));
	EXC_CASE(dead_code_elim, DISCARD(1));
	EXC_CASE(frame_mix_dce, OBJ(1), DYNPTR(1), DISCARD(2));

	/* Where the resources live */
	EXC_CASE(seven_frames, DISCARD(7));
	EXC_CASE(one_rec_three_copies, DISCARD(1));
	EXC_CASE(one_obj_three_copies, OBJ(1));
	EXC_CASE(caller_reg_spilled_deep, DISCARD(1));
	EXC_CASE(rec_two_frames, DISCARD(1));
	EXC_CASE(custom_cb_with_resources, DISCARD(1), OBJ(1), .retval = VAL + 1);
	/* both paths of the same throw: records on one, NULLs on the other */
	EXC_CASE_MARK(null_or_records, 1, DISCARD(3));
	EXC_CASE_MARK(null_or_records, 0, DISCARD(0));
	EXC_CASE_MARK(null_or_obj, 1, OBJ(1));
	EXC_CASE_MARK(null_or_obj, 0, OBJ(0));
	/* inner iterators of two earlier outer iterations destroyed by the
	 * program, the two live ones by the throw
	 */
	EXC_CASE(iter_nested_with_record, DISCARD(1), ITER(4));
	/* the program's own releases only */
	EXC_CASE(released_rec_before_throw, DISCARD(2));
	EXC_CASE(released_obj_iter_before_throw, OBJ(1), ITER(1));
	EXC_CASE(global_throw_caller_holds, DISCARD(1), OBJ(1));
	EXC_CASE(global_throw_in_loop, DISCARD(1), ITER(1));

	/* Objects from elsewhere than bpf_obj_new, and what fields own */
	EXC_CASE(dynptr_clone_throw, DYNPTR(1));
	EXC_CASE(obj_with_fields, OBJ(4));
	EXC_CASE(refcount_two_refs, OBJ(2));
	EXC_CASE(list_pop_throw, OBJ(1));
	EXC_CASE(rbtree_remove_throw, OBJ(1));
	EXC_CASE(kptr_xchg_throw, OBJ(2));
	/* held only at an offset from the object */
	EXC_CASE(obj_past_end, OBJ(1));
	EXC_CASE(obj_before_start, OBJ(1));

	/* BTF pointers released through their registered destructors */
	EXC_CASE(task_ref, .task_dtor = 1);
	EXC_CASE(cgroup_ref, .cgroup_dtor = 1);
	EXC_CASE(cpumask_ref, .syscall = true, .cpumask_dtor = 1);

	if (test__start_subtest("descs_freed"))
		test_descs_freed();
	exc_fi_throw_end(throw_counted);
}
