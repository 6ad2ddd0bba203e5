#!/bin/sh
# The disk.stream table of `show` keeps its columns under their headers,
# the median row too, at the 1000+ MiB/s of an NVMe disk: every row ends
# where the header's %CPU does, and the figures stand under each other.
set -eu
. "$(dirname "$0")/lib.sh"

HEADER=run,time,workload,metric,value,unit,better,host,iteration
# stream_rows RUN ITERATION UNIT WRITE MEAN SD CPU: the four disk.stream
# rows of an iteration, its rates in UNIT.
stream_rows() {
	for m in "write_mibps $4 $3 higher" "seg_mean_mibps $5 $3 higher" \
	    "seg_sd_mibps $6 $3 lower" "write_cpu $7 %CPU lower"; do
		set -- "$1" "$2" "$3" "$4" "$5" "$6" "$7" $m
		echo "$1,1700000000,disk.stream,$8,$9,${10},${11},h,$2"
	done
}
{
	echo "$HEADER"
	stream_rows s1 1 MiB/s 912.3 915.1 12.4 7.5
	stream_rows s1 2 MiB/s 1512.3 1515.1 10.2 9.5
} >"$T/s.csv"
pw import "$T/s.csv" >/dev/null
pw show s1 >"$T/show.out"
sed -n '/^disk.stream: /,/^$/p' "$T/show.out" | sed -n '2,$p' |
    sed '/^$/d' >"$T/table"
[ "$(wc -l <"$T/table")" -eq 4 ] || fail "table: $(cat "$T/show.out")"
# Every line as long as the header, and the MiB/s figures right-aligned
# under "MiB/s".
awk -v want="$(head -1 "$T/table" | awk '{ print length($0) }')" \
    'length($0) != want { exit 1 }' "$T/table" ||
	fail "ragged table: $(cat "$T/table")"
expect_eq "$(sed -n 4p "$T/table")" \
    'median  1212.3       1215.1 +-   11.3          8.5'
expect_eq "$(sed -n 3p "$T/table")" \
    '     2  1512.3       1515.1 +-   10.2          9.5'
# A row for each iteration the run has, not one for every number up to
# its last: an import numbered 1 and 1000000 printed a million rows.
cat >"$T/sparse.csv" <<'EOF2'
run,time,workload,metric,value,unit,better,host,iteration
sparse,1700000000,disk.stream,write_mibps,100,MiB/s,higher,h,1
sparse,1700000000,disk.stream,write_mibps,110,MiB/s,higher,h,1000000
sparse,1700000000,disk.bonnie,write_kps,100,K/sec,higher,h,2
sparse,1700000000,disk.bonnie,read_kps,110,K/sec,higher,h,900000
EOF2
pw import "$T/sparse.csv" >/dev/null
pw show sparse >"$T/sparse.out"
[ "$(wc -l <"$T/sparse.out")" -lt 30 ] ||
	fail "sparse: $(wc -l <"$T/sparse.out") lines"
[ "$(grep -c '^ *\(1\|2\|900000\|1000000\) ' "$T/sparse.out")" -eq 4 ] ||
	fail "sparse: $(cat "$T/sparse.out")"
# The iteration column is as wide as its widest number: 900000 and
# 1000000 pushed their rows three columns out of the table.
expect_match "$(cat "$T/sparse.out")" '
iter       K/sec  %CPU    K/sec  %CPU    K/sec  %CPU    K/sec  %CPU    K/sec  %CPU     /sec  %CPU
     2         -     -      100     -        -     -        -     -        -     -        -     -
900000         -     -        -     -        -     -        -     -      110     -        -     -
med.           -     -      100     -        -     -        -     -      110     -        -     -
'
expect_match "$(cat "$T/sparse.out")" '
     iter   MiB/s   segments MiB/s (mean +- sd)  %CPU
        1   100.0            - +-      -            -
  1000000   110.0            - +-      -            -
   median   105.0            - +-      -            -
'
sed -n '/^disk.bonnie$/,/^$/p' "$T/sparse.out" | sed '1d;/^$/d' |
    awk 'NR == 1 { want = length($0) } length($0) != want { exit 1 }' ||
	fail "sparse: ragged bonnie table: $(cat "$T/sparse.out")"

# A column's unit is the one its figures are stored in: the LKML
# write-up's 41 MB/s imported as disk.stream, a bonnie run in KB/s and
# an OLTP latency in seconds were headed MiB/s, K/sec and "p95 ms".
{
	echo "$HEADER"
	stream_rows mb 1 MB/s 41 41 2 7
	cat <<'EOF2'
mb,1700000000,disk.bonnie,write_kps,19004,KB/s,higher,h,1
mb,1700000000,disk.bonnie,write_cpu,9.1,%CPU,lower,h,1
mb,1700000000,db.oltp,tps_t1,1000,tps,higher,h,1
mb,1700000000,db.oltp,p95_ms_t1,0.0005,s,lower,h,1
EOF2
} >"$T/units.csv"
PERFWATCH_DB="$T/units.db" pw import "$T/units.csv" >/dev/null
out=$(PERFWATCH_DB="$T/units.db" pw show mb)
expect_match "$out" '
iter     K/sec  %CPU     KB/s  %CPU    K/sec  %CPU    K/sec  %CPU    K/sec  %CPU     /sec  %CPU
'
expect_match "$out" '
  iter    MB/s    segments MB/s (mean +- sd)  %CPU
     1    41.0         41.0 +-    2.0          7.0
'
expect_match "$out" "disk.stream: 1 MiB writes, an fsync after each segment"

# Figures in another unit than the tool's keep their digits where its
# decimals lose some: 6.43 MB/s in bonnie's K/sec column was "6", 0.42
# GB/s in the stream table "0.4", and a p95 of 0.0005 s "0.00".
{
	echo "$HEADER"
	stream_rows gb 1 GB/s 0.42 0.4213 0.0371 7.25
	cat <<'EOF2'
gb,1700000000,disk.bonnie,write_kps,6.43,MB/s,higher,h,1
gb,1700000000,disk.bonnie,read_kps,21.05,MB/s,higher,h,1
gb,1700000000,disk.bonnie,seeks_ps,123.456,1/s,higher,h,1
gb,1700000000,db.oltp,tps_t1,1000,tps,higher,h,1
gb,1700000000,db.oltp,p95_ms_t1,0.0005,s,lower,h,1
EOF2
} >"$T/digits.csv"
PERFWATCH_DB="$T/digits.db" pw import "$T/digits.csv" >/dev/null
out=$(PERFWATCH_DB="$T/digits.db" pw show gb)
expect_match "$out" '
   1         -     -     6.43     -        -     -        -     -    21.05     -  123.456     -
'
expect_match "$out" '
     1    0.42       0.4213 +- 0.0371          7.2
'
expect_match "$out" '
         1       1000.0     0.0005
'

# In as many digits as fit their column, the exponent and the sign
# counted: 123456789 B/s pushed bonnie's table three columns out as
# 1.23457e+08, and -0.00001234 MB/s the stream table's as -1.234e-05.
{
	echo "$HEADER"
	stream_rows big 1 MB/s 12345.67 12345.67 -0.00001234 7
	echo "big,1700000000,disk.bonnie,write_kps,123456789,B/s,higher,h,1"
} >"$T/big.csv"
PERFWATCH_DB="$T/big.db" pw import "$T/big.csv" >/dev/null
PERFWATCH_DB="$T/big.db" pw show big >"$T/big.out"
# ragged START: whether the lines after START, up to a blank one, differ
# in length.
ragged() {
	awk -v start="$1" '$0 ~ start { on = 1; next }
	    on && $0 == "" { exit bad }
	    on && want == "" { want = length($0) }
	    on && length($0) != want { bad = 1 }
	    END { exit bad }' "$T/big.out"
}
ragged '^disk.bonnie$' || fail "ragged bonnie table: $(cat "$T/big.out")"
ragged '^disk.stream: ' || fail "ragged stream table: $(cat "$T/big.out")"
expect_match "$(cat "$T/big.out")" '
   1         -     - 1.23e+08     -'
expect_match "$(cat "$T/big.out")" '
     1 12345.7     12345.67 +- -1e-05          7.0
'
expect_match "$out" '
   threads      trans/s      p95 s
'

pass
