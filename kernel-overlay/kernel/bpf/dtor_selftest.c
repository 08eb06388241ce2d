// SPDX-License-Identifier: GPL-2.0-only
/* Boot-time test of register_btf_id_dtor_kfuncs(): entries it must refuse,
 * and that a refused call leaves what earlier calls registered in place.
 * bpf_throw finds the function it releases an object with in that table,
 * so a refusal that emptied it would leave every later throw holding a
 * task or a cpumask unable to load, and every map with a kptr too.
 */
#define pr_fmt(fmt) "bpf_dtor_selftest: " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/init.h>

BTF_ID_LIST(dtor_test_ids)
BTF_ID(struct, task_struct)
BTF_ID(func, bpf_task_release_dtor)
BTF_ID(func, bpf_task_acquire)

static void dtor_test_noop(void *obj)
{
}

struct dtor_case {
	const char *name;
	u32 kfunc;		/* index in dtor_test_ids */
	u32 flags;
	btf_cleanup_dtor_t cleanup;
	int want;
};

static const struct dtor_case dtor_cases[] __initconst = {
	{ "no flags", 1, 0, NULL, -EINVAL },
	{ "unknown flag", 1, BPF_DTOR_KPTR | (1 << 7), NULL, -EINVAL },
	{ "cleanup without its function", 1, BPF_DTOR_CLEANUP, NULL, -EINVAL },
	{ "kptr with a cleanup function", 1, BPF_DTOR_KPTR, dtor_test_noop, -EINVAL },
	{ "kfunc returning a value", 2, BPF_DTOR_KPTR, NULL, -EINVAL },
	{ "second destructor of a type", 1, BPF_DTOR_KPTR, NULL, -EEXIST },
};

static bool __init dtor_case_ok(const struct dtor_case *c)
{
	struct btf_id_dtor_kfunc d = {
		.btf_id = dtor_test_ids[0],
		.kfunc_btf_id = dtor_test_ids[c->kfunc],
		.flags = c->flags,
		.cleanup = c->cleanup,
	};
	int ret = register_btf_id_dtor_kfuncs(&d, 1, NULL);

	if (ret == c->want)
		return true;
	pr_err("%s: got %d, want %d\n", c->name, ret, c->want);
	return false;
}

/* helpers.c registered task_struct's destructor for both uses */
static bool __init task_dtor_intact(void)
{
	struct btf *btf = bpf_get_btf_vmlinux();

	if (IS_ERR_OR_NULL(btf) ||
	    btf_find_dtor_kfunc(btf, dtor_test_ids[0], BPF_DTOR_KPTR) != dtor_test_ids[1] ||
	    !btf_find_cleanup_dtor(btf, dtor_test_ids[0])) {
		pr_err("task_struct's destructor is gone\n");
		return false;
	}
	return true;
}

static int __init bpf_dtor_selftest(void)
{
	int i, passed = 0, failed = 0;

	for (i = 0; i < ARRAY_SIZE(dtor_cases); i++) {
		if (dtor_case_ok(&dtor_cases[i]) && task_dtor_intact())
			passed++;
		else
			failed++;
	}
	pr_info("%d passed, %d failed\n", passed, failed);
	return 0;
}

/* after every late_initcall that registers destructors */
late_initcall_sync(bpf_dtor_selftest);
