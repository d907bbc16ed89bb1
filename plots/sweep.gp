# sweep.gp - a metric against a varied scenario key, one curve per policy
# (and per value of the other varied keys), the mean over the seeds with its
# 95% confidence interval (Student's t; none from a single run); the runs out
# of memory, and those that failed, counted at each point.
# Set by `rcuboost sweep`: datafile (blocks: "name" x mean lo hi n oom failed),
# outfile, metric, ylabel, xlabel, curves, numeric (0: categorical x),
# xtics_list, seeds, colours (per curve: its policy's colour, as in compare's
# plots), styles (per curve: point type and dash type, by the other varied
# keys' values), logx (1: the values span more than a decade), rate (1: mean is
# an outcome's rate, lo and hi its Wilson interval).
set terminal pngcairo size 1000,600 font "Sans,10" noenhanced
set output outfile
if (rate) {
    set title sprintf("%s against %s (the fraction of %d seeds, 95%% Wilson interval)", metric, xlabel, seeds)
} else { if (seeds > 1) {
    set title sprintf("%s against %s (mean of %d seeds, 95%% confidence interval)", metric, xlabel, seeds)
} else {
    set title sprintf("%s against %s (one seed: no interval)", metric, xlabel)
} }
# the key below, the x label above it: gnuplot sizes the bottom margin for
# both when it is left to it (a fixed one put the label inside a tall key)
set xlabel xlabel offset 0,0.4
set ylabel ylabel
set grid
set key below box spacing 1.1 height 1
if (!numeric) { eval sprintf("set xtics (%s)", xtics_list); set xrange [-0.5:*] }
if (logx) { set logscale x; set xlabel xlabel." (log scale)" offset 0,0.4 }
if (rate) { set yrange [0:1.05] } else { set yrange [0:*] }
set offsets graph 0.03, graph 0.03, graph 0.08, graph 0.05
pt(i) = word(styles, 2*i+1) + 0
dt(i) = word(styles, 2*i+2) + 0
plot for [i=0:curves-1] datafile index i using 1:2 with linespoints lw 2 pt pt(i) ps 1.2 dt dt(i) \
         lc rgb word(colours, i+1) title columnheader(1), \
     for [i=0:curves-1] datafile index i using 1:($5 > 1 || rate ? $2 : NaN):3:4 with yerrorbars lw 1 pt 0 \
         lc rgb word(colours, i+1) notitle, \
     for [i=0:curves-1] datafile index i using 1:($6 > 0 ? $2 : NaN) with points pt 6 ps 2.8 lw 2 \
         lc rgb "#c00000" notitle, \
     for [i=0:curves-1] datafile index i using 1:($6 > 0 ? $2 : NaN):(sprintf("%d/%d out of memory", $6, $5 + $7)) \
         with labels offset char 0,1.4 tc rgb "#c00000" notitle, \
     for [i=0:curves-1] datafile index i using 1:($7 > 0 ? ($2 == $2 ? $2 : 0) : NaN):(sprintf("%d failed", $7)) \
         with labels offset char 0,-1.4 tc rgb "#7f0000" notitle, \
     NaN with points pt 6 ps 2.8 lw 2 lc rgb "#c00000" title "runs out of memory there (count of the seeds)"
