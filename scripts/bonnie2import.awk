# Convert tests/data/reference/bonnie-linux-vs-sco.csv (system, run,
# size_mb, metric, value) to perfwatch's import format.  Each (system,
# run) becomes a run labelled SYSTEM-RUN on the host "compaq-ml350" (all
# three systems ran on the same Compaq ML350); runs are an hour apart
# from 2000-06-01, in file order, since the write-up gives no times.
BEGIN {
	FS = ","
	print "run,time,workload,metric,value,unit,better,host,iteration"
	t0 = 959817600	# 2000-06-01T00:00:00Z
	nruns = 0
}
NR == 1 {
	if ($0 != "system,run,size_mb,metric,value") {
		print "bonnie2import: unexpected header: " $0 > "/dev/stderr"
		exit 1
	}
	next
}
{
	label = $1 "-" $2
	if (!(label in runtime))
		runtime[label] = t0 + 3600 * nruns++
	if ($4 ~ /_kps$/) {
		unit = "K/sec"; better = "higher"
	} else if ($4 ~ /_cpu$/) {
		unit = "%CPU"; better = "lower"
	} else if ($4 == "seeks_ps") {
		unit = "/sec"; better = "higher"
	} else {
		print "bonnie2import: line " NR ": unknown metric " $4 > "/dev/stderr"
		exit 1
	}
	print label "," runtime[label] ",disk.bonnie," $4 "," $5 "," unit "," \
	    better ",compaq-ml350,1"
}
