// SPDX-License-Identifier: GPL-2.0
#include <test_progs.h>

#include "exceptions_reach.skel.h"

/* References and locks held across calls of global subprogs that may throw */
void test_exceptions_reach(void)
{
	RUN_TESTS(exceptions_reach);
}
