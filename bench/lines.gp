# Line plot of one column against the critical-section load, one line per data file.
# Called by bench/tpbench/plots.py (make bench-report):
#   gnuplot -e "files='a.dat b.dat'; titles='x86_64:2thr arm64:2thr'; col=2; goal=0.85;
#               ylab='TP / WW'; ttl='...'; out='x.svg'" bench/lines.gp
# goal < 0 draws no goal line.  Data files: "load value..." with a header comment.
set terminal svg size 760,420 dynamic font "sans,12" background rgb "white"
set termoption noenhanced
set output out
set title ttl
set xlabel "critical-section load (work loop iterations)"
set ylabel ylab
set logscale x
set xrange [4:125]
set xtics (5, 10, 20, 50, 100)
set grid ytics
set key outside right top
set yrange [0:*]
if (goal >= 0) {
	set arrow 1 from graph 0, first goal to graph 1, first goal nohead dt 2 lw 1 lc rgb "black"
	plot for [i=1:words(files)] word(files, i) using 1:col with linespoints lw 2 pt 7 \
		title word(titles, i), \
		NaN with lines lw 1 dt 2 lc rgb "black" title sprintf("goal %g", goal)
} else {
	plot for [i=1:words(files)] word(files, i) using 1:col with linespoints lw 2 pt 7 \
		title word(titles, i)
}
