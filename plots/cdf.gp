# cdf.gp - a latency distribution (CDF, log time axis), one curve per policy.
#
# Set by `rcuboost compare`:
#   datadir, policies, scenario, term, outfile   as in memory.gp
#   metric     the distribution in DATADIR/POLICY/distributions.csv
#              (gp_latency, callback_latency, sync_latency, rt_wakeup_latency,
#              policy.boost_delay, policy.boosted_time)
#   what       what it measures, for the title
#   unit, scale   x axis unit and nanoseconds per unit ("ms", 1e6)
set terminal @term
set output outfile
set datafile separator ","
set title sprintf("%s -- scenario %s", what, scenario)
set xlabel sprintf("%s (%s, log scale)", what, unit)
set ylabel "fraction of events at or below"
set logscale x
set grid xtics mxtics ytics
set key bottom right box opaque
set yrange [0:1.02]
plot for [i=1:words(policies)] datadir.'/'.word(policies, i).'/distributions.csv' \
         every ::1 using (strcol(1) eq metric ? $3/scale : NaN):(strcol(1) eq metric ? $5 : NaN) \
         with steps lw 2 title word(policies, i)
