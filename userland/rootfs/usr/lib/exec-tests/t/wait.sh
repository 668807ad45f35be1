# wait.sh - background jobs: $!, wait for one, wait for all, their statuses.
sleep 1 &
a=$!
(sleep 0.2; exit 3) &
b=$!
wait $b
echo "job b: status $?"
wait $a
echo "job a: status $?"
# Started longest first, 0.3 s apart: they end in the other order.
for i in 5 4 3 2 1; do (sleep $((i * 3 / 10)).$((i * 3 % 10)); echo "job $i done") & done
wait
echo "all five done"
(exit 9) &
sleep 0.5
wait $!
echo "a job that ended before wait: status $?"
wait 12345
echo "wait for an unknown pid: status $?"
sh -c 'sleep 0.3 & wait; echo "inner shell waited"'
