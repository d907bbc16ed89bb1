# cdf.gp - a latency distribution's tail: the fraction of samples at or above
# x, log-log (as latency papers draw it), one curve per policy (a point at
# each bin edge, so that a policy with one sample still shows).
#
# Set by `rcuboost compare`:
#   datadir, policies, titles, colours, scenario, term, outfile   as in memory.gp
#              (only the policies that measured something are listed)
#   stem       the data is DATADIR/POLICY/tail-STEM.dat: "x_ns,fraction", one
#              point per histogram bin edge, the last at the maximum with 1/N
#   what       what it measures, for the title
#   unit, scale   x axis unit and nanoseconds per unit ("ms", 1e6)
#   nopoints   set when no listed policy has a sample above 0 (every one is 0 ns,
#              which a log axis has no place for): fixed ranges instead of none
#   extra      more plot elements (", FILE using ..."), or "" -- compare adds
#              the grace periods still pending at the end, which never
#              complete and so are not in the distribution
set terminal @term
set termoption noenhanced   # call_rcu() and synchronize_rcu() as written, no subscripts
set output outfile
set datafile separator ","
set title sprintf("%s -- scenario %s", what, scenario)
set xlabel sprintf("%s (%s, log scale)", what, unit) offset 0,0.4
set ylabel "fraction of samples this slow or slower (log scale)"
set logscale xy
set format y "%g"
set grid xtics mxtics ytics
set key below box spacing 1.1 height 1   # below the plot, never over a tail (#58)
set yrange [*:1.5]
# a policy whose whole distribution is the shortest bin stays off the border
set offsets graph 0.04, graph 0.02, 0, 0
if (exists("nopoints")) { set xrange [0.001:1]; set yrange [0.01:1.5] }
plot for [i=1:words(policies)] datadir.'/'.word(policies, i).'/tail-'.stem.'.dat' \
         every ::1 using ($1/scale):2 with linespoints lw 2 pt 7 ps 0.5 lc rgb word(colours, i) \
         title word(titles, i) @extra
