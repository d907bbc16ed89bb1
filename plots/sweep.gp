# sweep.gp - a metric against a varied scenario key, one curve per policy,
# mean over the seeds with its 95% confidence interval (Student's t).
# Set by `rcuboost sweep`: datafile (blocks: "name" x mean lo hi), outfile,
# metric, ylabel, xlabel, curves, numeric (0: categorical x), xtics_list, seeds,
# colours (per curve: its policy's colour, as in compare's plots), logx (1: the
# values span more than a decade).
set terminal pngcairo size 1000,600 font "Sans,10" noenhanced
set output outfile
set title sprintf("%s against %s (mean of %d seeds, 95%% confidence interval)", metric, xlabel, seeds)
set xlabel xlabel
set ylabel ylabel
set grid
set key top left box opaque
if (!numeric) { eval sprintf("set xtics (%s)", xtics_list); set xrange [-0.5:*] }
if (logx) { set logscale x; set xlabel xlabel." (log scale)" }
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
plot for [i=0:curves-1] datafile index i using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb word(colours, i+1) \
         title columnheader(1)
