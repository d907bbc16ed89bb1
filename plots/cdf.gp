# cdf.gp - a latency distribution (CDF, log time axis), one curve per policy.
#
# Set by `rcuboost compare`:
#   datadir, policies, scenario, term, outfile   as in memory.gp
#   metric     the distribution in DATADIR/POLICY/distributions.csv
#              (gp_latency, callback_latency, sync_latency, rt_wakeup_latency,
#              policy_stats.boost_delay, policy_stats.boosted_time)
#   what       what it measures, for the title
#   unit, scale   x axis unit and nanoseconds per unit ("ms", 1e6)
#   extra      more plot elements (", FILE using ..."), or "" -- compare adds
#              the grace periods still pending at the end, which never
#              complete and so are not in the distribution
set terminal @term
set termoption noenhanced   # call_rcu() and synchronize_rcu() as written, no subscripts
set output outfile
set datafile separator ","
set title sprintf("%s -- scenario %s", what, scenario)
set xlabel sprintf("%s (%s, log scale)", what, unit)
set ylabel "fraction of events at or below"
set logscale x
set grid xtics mxtics ytics
set key bottom right box opaque
set yrange [0:1.02]
# Each bin is a segment from (lo, cdf_lo) to (hi, cdf): linear within a bin.
plot for [i=1:words(policies)] datadir.'/'.word(policies, i).'/distributions.csv' every ::1 \
         using (strcol(1) eq metric ? $2/scale : NaN):5:(($3-$2)/scale):($6-$5) \
         with vectors nohead lw 2 lc i title word(titles, i) @extra
