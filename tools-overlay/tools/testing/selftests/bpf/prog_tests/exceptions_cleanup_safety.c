// SPDX-License-Identifier: GPL-2.0
/* Throws through the passes that rewrite a program after verification
 * (progs/exceptions_cleanup_safety.c): each case holds a ring buffer
 * record when it throws, which must come back, discarded. A record that
 * was not released stays busy in the ring, and the consumer stops at it.
 */
#include <test_progs.h>
#include <network_helpers.h>
#include <bpf/btf.h>

#include "exceptions_cleanup_safety.skel.h"

#define VAL 0xeB9F

static int count_sample(void *ctx, void *data, size_t size)
{
	(*(int *)ctx)++;
	return 0;
}

static struct exceptions_cleanup_safety *open_prog(const char *name, __u32 flags)
{
	struct exceptions_cleanup_safety *skel;
	struct bpf_program *prog;

	skel = exceptions_cleanup_safety__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return NULL;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (!ASSERT_OK_PTR(prog, name))
		goto err;
	bpf_program__set_autoload(prog, true);
	bpf_program__set_flags(prog, bpf_program__flags(prog) | flags);
	if (!ASSERT_OK(exceptions_cleanup_safety__load(skel), "load"))
		goto err;
	return skel;
err:
	exceptions_cleanup_safety__destroy(skel);
	return NULL;
}

/* Run @name once on a packet with skb->mark @mark; it must throw VAL, and
 * the ring buffer must end with @reserved more bytes produced and nothing
 * left busy or submitted.
 */
static void run_case(const char *name, __u32 flags, __u32 mark, bool reserved)
{
	struct exceptions_cleanup_safety *skel = open_prog(name, flags);
	struct __sk_buff skb = { .mark = mark };
	struct ring_buffer *ringbuf = NULL;
	struct bpf_program *prog;
	struct ring *ring;
	int samples = 0;

	LIBBPF_OPTS(bpf_test_run_opts, topts,
		    .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4),
		    .ctx_in = &skb,
		    .ctx_size_in = sizeof(skb),
	);

	if (!skel)
		return;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), count_sample, &samples, NULL);
	if (!ASSERT_OK_PTR(ringbuf, "ring_buffer__new"))
		goto out;
	ring = ring_buffer__ring(ringbuf, 0);
	if (!ASSERT_OK_PTR(ring, "ring"))
		goto out;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (!ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(prog), &topts), "run"))
		goto out;
	ASSERT_EQ(topts.retval, VAL, "retval is the thrown cookie");
	ASSERT_GE(ring_buffer__consume(ringbuf), 0, "consume");
	ASSERT_EQ(samples, 0, "records submitted");
	if (reserved)
		ASSERT_GT(ring__producer_pos(ring), 0, "a record was reserved");
	else
		ASSERT_EQ(ring__producer_pos(ring), 0, "no record reserved");
	ASSERT_EQ(ring__avail_data_size(ring), 0, "record released (none busy)");
out:
	ring_buffer__free(ringbuf);
	exceptions_cleanup_safety__destroy(skel);
}

#define JIT_HARDEN "/proc/sys/net/core/bpf_jit_harden"

/* Set bpf_jit_harden to @val; its old value in *@old if @old */
static int set_jit_harden(char val, char *old)
{
	int fd = open(JIT_HARDEN, O_RDWR);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (old && read(fd, old, 1) != 1)
		err = -EIO;
	if (!err && pwrite(fd, &val, 1, 0) != 1)
		err = -EIO;
	close(fd);
	return err;
}

/* Load @name alone with its verifier log in @log */
static int load_logged(const char *name, char *log, size_t sz)
{
	struct exceptions_cleanup_safety *skel;
	struct bpf_program *prog;
	int err;

	skel = exceptions_cleanup_safety__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return -EINVAL;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	bpf_program__set_autoload(prog, true);
	bpf_program__set_log_buf(prog, log, sz);
	err = exceptions_cleanup_safety__load(skel);
	exceptions_cleanup_safety__destroy(skel);
	return err;
}

/* Constant blinding rewrites the program after the descriptors were
 * recorded, with other insn indexes: a program that holds something at a
 * throw is refused, one that holds nothing loads.
 */
static void test_blinding_refused(void)
{
	static char log[16384];
	char old = '0';
	int err;

	/* 2: blind every program, root's too */
	if (!ASSERT_OK(set_jit_harden('2', &old), "bpf_jit_harden=2"))
		return;
	log[0] = 0;
	err = load_logged("fastcall_slot", log, sizeof(log));
	ASSERT_EQ(err, -EOPNOTSUPP, "holding a record: refused");
	ASSERT_HAS_SUBSTR(log, "cannot be released with constant blinding",
			  "the log says why");
	err = load_logged("throw_holding_nothing", log, sizeof(log));
	ASSERT_OK(err, "holding nothing: loads");
	ASSERT_OK(set_jit_harden(old, NULL), "bpf_jit_harden restored");
}

/* A tc program with @sites throw sites: site k throws when skb->mark == k.
 * With @fill, each first spills a scalar into all 64 stack slots, so that
 * every descriptor describes 64 locations (about 3 KiB).
 */
static int load_throw_sites(int sites, bool fill, char *log, size_t sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sz,
		    .log_level = log ? 1 : 0);
	int i, n = 0, id, fd = -ENOMEM;
	struct bpf_insn *insns;
	struct btf *btf;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "vmlinux btf"))
		return -EINVAL;
	id = btf__find_by_name_kind(btf, "bpf_throw", BTF_KIND_FUNC);
	btf__free(btf);
	if (!ASSERT_GT(id, 0, "bpf_throw btf id"))
		return -EINVAL;
	insns = calloc(4 * sites + 80, sizeof(*insns));
	if (!ASSERT_OK_PTR(insns, "insns"))
		return -ENOMEM;
	insns[n++] = BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1,
				 offsetof(struct __sk_buff, mark));
	for (i = 1; fill && i <= 64; i++)
		insns[n++] = BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_2, -8 * i);
	for (i = 0; i < sites; i++) {
		insns[n++] = BPF_JMP_IMM(BPF_JNE, BPF_REG_2, i, 2);
		insns[n++] = BPF_MOV64_IMM(BPF_REG_1, 0);
		insns[n++] = BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0,
					  BPF_PSEUDO_KFUNC_CALL, 0, id);
	}
	insns[n++] = BPF_MOV64_IMM(BPF_REG_0, 1);
	insns[n++] = BPF_EXIT_INSN();
	if (log)
		log[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "throw_sites", "GPL",
			   insns, n, &opts);
	free(insns);
	return fd;
}

/* One descriptor per throw site here: 16384 of them load, and throw;
 * one more is refused, as are 6000 sites of 64 locations (over 16 MiB).
 * Without the bounds a loader could make the verifier allocate a
 * descriptor per site and frame, several KiB each, without limit.
 */
static void test_descriptor_limits(void)
{
	/* level 1 logs every insn: room for all of them, so that the load
	 * fails with the verifier's error, not with -ENOSPC
	 */
	size_t sz = 64 << 20;
	char *log = malloc(sz);
	struct __sk_buff skb = { .mark = 16383 };
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4), .ctx_in = &skb,
		    .ctx_size_in = sizeof(skb));
	const char *msg = "frame descriptors or 16 MiB for them";
	int fd;

	if (!ASSERT_OK_PTR(log, "log"))
		return;
	fd = load_throw_sites(16384, false, NULL, 0);
	if (ASSERT_GE(fd, 0, "16384 sites load")) {
		ASSERT_OK(bpf_prog_test_run_opts(fd, &topts), "test_run");
		ASSERT_EQ(topts.retval, 0, "the last site threw");
		close(fd);
	}
	fd = load_throw_sites(16385, false, log, sz);
	ASSERT_EQ(fd, -E2BIG, "16385 sites refused");
	ASSERT_HAS_SUBSTR(log, msg, "the log says why");
	fd = load_throw_sites(6000, true, log, sz);
	ASSERT_EQ(fd, -E2BIG, "6000 sites of 64 slots refused");
	ASSERT_HAS_SUBSTR(log, msg, "the log says why");
	fd = load_throw_sites(2000, true, NULL, 0);
	ASSERT_GE(fd, 0, "2000 sites of 64 slots load");
	if (fd >= 0)
		close(fd);
	free(log);
}

/* The kernel's boot-time test of destructor registration
 * (kernel/bpf/dtor_selftest.c, CONFIG_BPF_DTOR_SELFTEST) logs one result
 * line: find it in /dev/kmsg. Its cases are the registrations bpf_throw's
 * table must refuse, and that a refusal keeps the earlier entries.
 */
static void test_dtor_registration(void)
{
	const char *key = "bpf_dtor_selftest: ";
	int fd, passed = -1, failed = -1;
	char rec[1024], *p;
	ssize_t n;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (!ASSERT_GE(fd, 0, "open /dev/kmsg"))
		return;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		p = strstr(rec, key);
		if (p && strstr(p, " passed, "))
			sscanf(p + strlen(key), "%d passed, %d failed", &passed, &failed);
		else if (p)
			fprintf(stderr, "%s", p);	/* a failed case says which */
	}
	close(fd);
	if (!ASSERT_NEQ(passed, -1, "result line in the kernel log (CONFIG_BPF_DTOR_SELFTEST=y?)"))
		return;
	ASSERT_EQ(passed, 6, "cases passed");
	ASSERT_EQ(failed, 0, "cases failed");
}

void test_exceptions_cleanup_safety(void)
{
	if (test__start_subtest("dtor_registration"))
		test_dtor_registration();
	if (test__start_subtest("descriptor_limits"))
		test_descriptor_limits();
	if (test__start_subtest("fastcall_slot"))
		run_case("fastcall_slot", 0, 0, true);
	/* mark 0: R6 is NULL, written by a 32-bit insn */
	if (test__start_subtest("rnd_hi32_null"))
		run_case("rnd_hi32_null", BPF_F_TEST_RND_HI32, 0, false);
	if (test__start_subtest("rnd_hi32_record"))
		run_case("rnd_hi32_null", BPF_F_TEST_RND_HI32, 1, true);
	if (test__start_subtest("prologue_insn0"))
		run_case("prologue_insn0", 0, 0, true);
	if (test__start_subtest("may_goto_insn0"))
		run_case("may_goto_insn0", 0, 0, true);
	if (test__start_subtest("blinding_refused"))
		test_blinding_refused();
}
