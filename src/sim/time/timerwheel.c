/* timerwheel.c - jiffies and the timer wheel's rounding; see timerwheel.h. */
#include "timerwheel.h"

#include "../engine/engine.h"

/* kernel/time/timer.c, HZ > 100 */
#define LVL_CLK_SHIFT 3
#define LVL_BITS 6
#define LVL_SIZE (INT64_C(1) << LVL_BITS)
#define LVL_DEPTH 9
#define LVL_SHIFT(n) ((n) * LVL_CLK_SHIFT)
#define LVL_GRAN(n) (INT64_C(1) << LVL_SHIFT(n))
#define LVL_START(n) ((LVL_SIZE - 1) << (((n) - 1) * LVL_CLK_SHIFT))
#define WHEEL_TIMEOUT_CUTOFF LVL_START(LVL_DEPTH)
#define WHEEL_TIMEOUT_MAX (WHEEL_TIMEOUT_CUTOFF - LVL_GRAN(LVL_DEPTH - 1))

int64_t timer_wheel_jiffies(const struct sim *sim)
{
        sim_time_ns since = sim->now - sim->tick_phase_ns;

        return since < 0 ? -1 : since / sim->tick_ns;
}

sim_time_ns timer_wheel_jiffy_ns(const struct sim *sim, int64_t j)
{
        if (j >= (SIM_TIME_NEVER - sim->tick_phase_ns) / sim->tick_ns)
                return SIM_TIME_NEVER;
        return sim->tick_phase_ns + j * sim->tick_ns;
}

/* calc_wheel_index(): the bucket's expiry, by the level the distance picks. */
static int64_t bucket_expiry(int64_t expires, int64_t clk)
{
        int64_t delta = expires - clk;
        int lvl = 0;

        if (delta < 0)
                return clk;
        if (delta >= WHEEL_TIMEOUT_CUTOFF) {
                expires = clk + WHEEL_TIMEOUT_MAX;
                lvl = LVL_DEPTH - 1;
        } else {
                while (lvl < LVL_DEPTH - 1 && delta >= LVL_START(lvl + 1))
                        lvl++;
        }
        /* calc_index(): round up by one unit of the level's granularity */
        return ((expires >> LVL_SHIFT(lvl)) + 1) << LVL_SHIFT(lvl);
}

sim_time_ns timer_wheel_fires_at(const struct sim *sim, int64_t expires)
{
        int64_t now_j = timer_wheel_jiffies(sim);

        if (sim->env.wheel_round_up)
                expires = bucket_expiry(expires, now_j);
        /* none fires before the next tick */
        return timer_wheel_jiffy_ns(sim, MAX(expires, now_j + 1));
}

sim_time_ns timer_wheel_timeout(const struct sim *sim, int64_t timeout)
{
        int64_t now_j = timer_wheel_jiffies(sim);

        /* schedule_timeout(): expire = timeout + jiffies, and a timeout
         * of 0 or less still waits for a tick here */
        timeout = CLAMP(timeout, 1, WHEEL_TIMEOUT_CUTOFF);
        return timer_wheel_fires_at(sim, now_j + timeout);
}

/* The draw for (@cpu, @j): a counter-based one (splitmix64's finaliser
 * over the run's phase seed, the CPU and the jiffy), so that a tick and
 * every timer armed long before for the same jiffy agree without a table. */
static sim_time_ns tick_order_ns(const struct sim *sim, int cpu, int64_t j)
{
        uint64_t z = sim->phase_seed + (uint64_t)j * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)cpu * UINT64_C(0xbf58476d1ce4e5b9);

        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        z ^= z >> 31;
        return (sim_time_ns)(z % TICK_ORDER_SPREAD_NS);
}

sim_time_ns timer_wheel_on_cpu(const struct sim *sim, int cpu, sim_time_ns grid_ns)
{
        if (!sim->env.phases_drawn || grid_ns >= SIM_TIME_NEVER - TICK_ORDER_SPREAD_NS)
                return grid_ns;
        return grid_ns + tick_order_ns(sim, cpu, (grid_ns - sim->tick_phase_ns) / sim->tick_ns);
}

/* skew_tick: CPU @cpu's tick offset by cpu * half a tick / ncpus */
static sim_time_ns tick_skew_ns(const struct sim *sim, int cpu)
{
        return sim->sc->skew_tick ? (sim->tick_ns >> 1) / sim->ncpus * cpu : 0;
}

sim_time_ns timer_wheel_tick_ns(const struct sim *sim, int cpu, int64_t j)
{
        return timer_wheel_on_cpu(sim, cpu, timer_wheel_jiffy_ns(sim, j)) + tick_skew_ns(sim, cpu);
}

int64_t timer_wheel_tick_jiffy(const struct sim *sim, int cpu, sim_time_ns now)
{
        return (now - tick_skew_ns(sim, cpu) - sim->tick_phase_ns) / sim->tick_ns;
}

sim_time_ns timer_wheel_fires_at_ns(const struct sim *sim, sim_time_ns ns)
{
        int64_t j;

        if (ns >= SIM_TIME_NEVER - sim->tick_ns)
                return SIM_TIME_NEVER;
        ns = MAX(ns, sim->now);
        j = (ns - sim->tick_phase_ns + sim->tick_ns - 1) / sim->tick_ns;
        if (!sim->env.wheel_round_up)
                return MAX(timer_wheel_jiffy_ns(sim, j), sim->now);
        return timer_wheel_fires_at(sim, j);
}
