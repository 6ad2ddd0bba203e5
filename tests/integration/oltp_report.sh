#!/bin/sh
# The db.oltp table that `show` (and `run`) print has a row for every
# thread count stored, in numeric order, not only for powers of two.
set -eu
. "$(dirname "$0")/lib.sh"

cat >"$T/h.csv" <<EOF
run,time,workload,metric,value,unit,better
r1,1700000000,db.oltp,tps_t1,1000,trans/s,higher
r1,1700000000,db.oltp,p95_ms_t1,0.5,ms,lower
r1,1700000000,db.oltp,tps_t3,2500,trans/s,higher
r1,1700000000,db.oltp,p95_ms_t3,0.75,ms,lower
r1,1700000000,db.oltp,tps_t12,4000,trans/s,higher
r1,1700000000,db.oltp,p95_ms_t12,1.25,ms,lower
r1,1700000000,db.oltp,tps_t2048,3000,trans/s,higher
r1,1700000000,db.oltp,p95_ms_t2048,9.5,ms,lower
EOF
# oltp_rows FILE RUN: import FILE, show RUN: its db.oltp table's rows.
oltp_rows() {
	pw import "$1" >"$T/import.out" 2>&1 ||
		fail "import: $(cat "$T/import.out")"
	pw show "$2" >"$T/show.out" 2>&1 || fail "show: $(cat "$T/show.out")"
	sed -n '/^db.oltp: /,/^$/p' "$T/show.out" | awk '$1 ~ /^[0-9]+$/'
}
rows=$(oltp_rows "$T/h.csv" r1 | awk '{ print $1 "=" $2 "/" $3 }' |
    tr '\n' ' ')
[ "$rows" = "1=1000.0/0.50 3=2500.0/0.75 12=4000.0/1.25 2048=3000.0/9.50 " ] ||
	fail "rows \"$rows\": $(cat "$T/show.out")"
# A name with a leading zero (tps_t01, an import) is no second row for
# its count: the row of 1 thread was printed twice, with tps_t1's figure.
cat >"$T/z.csv" <<EOF
run,time,workload,metric,value,unit,better
z1,1700000000,db.oltp,tps_t1,1000,trans/s,higher
z1,1700000000,db.oltp,tps_t01,900,trans/s,higher
z1,1700000000,db.oltp,tps_t2,1500,trans/s,higher
EOF
rows=$(oltp_rows "$T/z.csv" z1 | awk '{ print $1 "=" $2 }' | tr '\n' ' ')
[ "$rows" = "1=1000.0 2=1500.0 " ] ||
	fail "rows \"$rows\": $(cat "$T/show.out")"

pass
