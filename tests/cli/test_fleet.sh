#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fleet (issue 12, part 5), for real: fleet/site.yml run by Debian's
# ansible-playbook against this machine (two inventory hosts, both
# connection local: one imports its own results, the other sweeps with
# --runs 2 and has them fetched to the controller and imported there) into a throwaway
# PostgreSQL server (tests/pg.bash); meanwhile a QEMU guest (ci/vm-run.sh,
# the cached Debian cloud kernel, TCG: another CPU model, vCPU count and
# RAM, so another machine fingerprint) runs the same tiny sweep twice,
# and its results are imported too, as a machine outside the inventory
# would push them.  Then `db list` and `history` must show both machines,
# each point's series once per machine.  A store the controller cannot
# reach fails the playbook before anything is measured; a third host
# without the harness fails alone, before its sweep, and the others go on.
#
# Exit 4 (skipped, with the reason) without ansible-playbook, the
# PostgreSQL server or libpq, QEMU or a guest kernel; with VSB_SKIP_VM=1
# the guest's part is skipped (TAP SKIP lines) and the rest runs.
#
# lane: guest
. "$(dirname "$0")/../lib.sh"

command -v ansible-playbook >/dev/null ||
	{ echo "# ansible-playbook missing: apt-get install ansible"; exit 4; }
GUEST=1
if [ -n "${VSB_SKIP_VM:-}" ]; then
	GUEST=0
else
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "# qemu-system-x86_64 missing: apt-get install qemu-system-x86"; exit 4; }
	kc=$(cd "$VSB_ROOT" && ci/kernel-cache.sh 2>"$TMP/cache.log")
	rc=$?
	if [ $rc -eq 4 ]; then
		echo "# no guest kernel: $(tail -1 "$TMP/cache.log" | sed 's/^kernel-cache: SKIP: //')"
		exit 4
	fi
	[ $rc -eq 0 ] || { sed 's/^/# /' "$TMP/cache.log" | tail -5; not_ok "guest kernel"; done_testing; exit 1; }
	eval "$kc"
fi
. "$(dirname "$0")/../pg.bash"
vsb_pg_start
ok "throwaway PostgreSQL started (Unix socket in $PGT, no TCP)"

cat >"$TMP/fleet.sweep" <<'EOF'
name fleet
bench counter
backend user
cpus 0
loops 2000
repeat 3
variant this-cpu-add, cmpxchg-local
EOF

# the guest, in the background while the playbook runs: one vCPU and
# 512 MB (this machine has 2 CPUs and more RAM), the sweep twice
if [ $GUEST -eq 1 ]; then
	mkdir -p "$TMP/guest"
	# shellcheck disable=SC2016  # expanded by the guest's shell
	"$VSB_ROOT/ci/vm-run.sh" --kernel "$KERNEL" --smp 1 --mem 512 --timeout 150 \
		--out "$TMP/guest" --add "$VSB:bin/vmstat-bench" --add "$TMP/fleet.sweep:fleet/fleet.sweep" -- \
		'bin/vmstat-bench sweep fleet/fleet.sweep -o /out/a && bin/vmstat-bench sweep fleet/fleet.sweep -o /out/b' \
		>"$TMP/guest.out" 2>"$TMP/guest.err" &
	gpid=$!
fi

# Ansible's own files stay in $TMP; no colour, no retry files
export ANSIBLE_HOME="$TMP/ansible" ANSIBLE_LOCAL_TEMP="$TMP/ansible/tmp" \
	ANSIBLE_REMOTE_TEMP="$TMP/ansible/tmp" ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_LOCALHOST_WARNING=0
# vsb_bin as a group variable, so that a host variable can override it
# (an -e one could not be)
cat >"$TMP/inventory" <<EOF
[bench]
push ansible_connection=local vsb_import_from=host
pull ansible_connection=local vsb_import_from=controller vsb_sweep_args='["--runs", "2"]'
broken ansible_connection=local vsb_bin=/nonexistent/vmstat-bench

[all:vars]
vsb_bin=$VSB
EOF
# started in $TMP, with the controller's paths relative to it
pb() {
	(cd "$TMP" && ansible-playbook -i inventory "$VSB_ROOT/fleet/site.yml" \
		-e vsb_sweep=fleet.sweep -e "vsb_results=$TMP/hosts" -e vsb_collect=collect "$@")
}

# a store the hosts cannot reach: refused before any sweep
pb -e "vsb_db=postgresql:///postgres?host=$TMP/nowhere&user=vsb" >"$TMP/pb-bad.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "^localhost .*failed=1" "$TMP/pb-bad.out" && [ ! -e "$TMP/hosts" ] &&
	ok "unreachable store: the playbook fails before measuring (exit $rc, no results folder)" ||
	not_ok "unreachable store refused first" "exit $rc" "$(grep -m3 -e fatal -e failed= "$TMP/pb-bad.out")"

t0=$SECONDS
host_benches pb -e "vsb_db=$PG_URL" -e vsb_history=pb-history >"$TMP/pb.out" 2>&1
rc=$?
recap=$(sed -n '/^PLAY RECAP/,$p' "$TMP/pb.out")
if [ $rc -eq 2 ] && echo "$recap" | grep -q '^push .*failed=0' && echo "$recap" | grep -q '^pull .*failed=0'; then
	ok "ansible-playbook fleet/site.yml: both hosts swept and imported ($((SECONDS - t0)) s)"
else
	not_ok "ansible-playbook fleet/site.yml" "exit $rc" "$(grep -m5 -e fatal -e 'msg' "$TMP/pb.out")" "$recap"
fi
[ "$(psq "SELECT count(*) FROM run WHERE source LIKE '$TMP/hosts/push-fleet-%/results/%'")" = 2 ] &&
	ok "push: its 2 runs imported from the host's folder" ||
	not_ok "push: runs imported" "$(psq 'SELECT source FROM run')"
[ "$(psq "SELECT count(*) FROM run WHERE source LIKE '$TMP/collect/pull-fleet-%/run-_/%'")" = 4 ] &&
	ok "pull (sweep --runs 2): its 4 runs fetched to the controller and imported there" ||
	not_ok "pull: runs fetched and imported" "$(psq 'SELECT source FROM run')"
echo "$recap" | grep -q '^broken .*failed=1' && [ -z "$(ls -d "$TMP"/hosts/broken-* 2>/dev/null)" ] &&
	ok "a host without the harness: failed before measuring, the others went on (exit 2)" ||
	not_ok "broken host" "exit $rc" "$recap"
grep -q 'Machines in the store' "$TMP/pb.out" && [ -s "$TMP/pb-history/index.html" ] &&
	ok "the playbook lists the store and writes history (vsb_history)" ||
	not_ok "playbook's list and history" "$(ls "$TMP/pb-history" 2>&1 | head -3)"

if [ $GUEST -eq 0 ]; then
	skip "guest: the tiny sweep in a QEMU guest" "VSB_SKIP_VM=1"
	skip "history shows both machines" "VSB_SKIP_VM=1"
	done_testing
	exit
fi

wait $gpid
grc=$?
if [ $grc -eq 4 ]; then
	echo "# SKIP: the guest cannot run here: $(grep -m1 SKIP "$TMP/guest.err")"
	exit 4
fi
if [ $grc -eq 0 ] && ls "$TMP"/guest/a/*.csv "$TMP"/guest/b/*.csv >/dev/null 2>&1; then
	ok "guest ($(basename "$KERNEL")): the tiny sweep ran twice"
else
	not_ok "guest sweep" "exit $grc" "$(grep -v '^ *|' "$TMP/guest.err" | tail -3)"
fi
expect_exit 0 "the guest's results imported (db import, as a machine outside the inventory)" \
	"$VSB" db import --db "$PG_URL" "$TMP/guest/a" "$TMP/guest/b"

[ "$(psq 'SELECT count(*) FROM machine')" = 2 ] && [ "$(psq 'SELECT count(*) FROM run')" = 10 ] &&
	ok "the store: 2 machines, 10 runs" ||
	not_ok "2 machines, 10 runs" "$(psq 'SELECT count(*) FROM machine') machines, $(psq 'SELECT count(*) FROM run') runs"
expect_exit 0 "db list" "$VSB" db list --db "$PG_URL"
grep -q 'QEMU' "$TMP/out" && [ "$(grep -c '^  m-' "$TMP/out")" -eq 2 ] &&
	ok "db list: this machine and the guest's (QEMU) CPU" || not_ok "db list machines" "$(head -6 "$TMP/out")"

expect_exit 0 "history over the fleet's store" "$VSB" history --db "$PG_URL" -o "$TMP/hist"
machines=$(grep ' entries by ' "$TMP/out" | sed 's/.* on \(m-[0-9a-f]*\):.*/\1/' | sort -u | wc -l)
nser=$(grep -c -e ' 3 entries by ' -e ' 2 entries by ' "$TMP/out")
[ "$machines" -eq 2 ] && [ "$nser" -eq 4 ] &&
	ok "history: each point once per machine (2 points x 2 machines, 3 and 2 entries)" ||
	not_ok "history shows both machines" "$(cat "$TMP/out")"
for m in $(psq 'SELECT fingerprint FROM machine'); do
	grep -q "$m" "$TMP/hist/index.html" || missing="${missing:-} $m"
done
[ -z "${missing:-}" ] && ok "index.html names both machines" || not_ok "index.html machines" "missing:$missing"
done_testing
