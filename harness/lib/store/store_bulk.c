// SPDX-License-Identifier: GPL-2.0
/*
 * The first load into an empty sample table builds its indexes after
 * the rows.  Kept up row by row, the two indexes of sample (its primary
 * key and sample_point) were most of what PostgreSQL did for a million
 * samples: a COPY into the table without them took 3.0 s against 7.8 s
 * with them, and building both afterwards 1.0 s (psql on this loaded
 * host, docs/measurements.md).  A store's first import, or a folder of
 * results imported into a new fleet store, is that case.  Later imports
 * keep the indexes: rebuilding them would cost what the store holds,
 * not what the import adds.
 *
 * PostgreSQL also truncates the empty table there: a table truncated in
 * the transaction that fills it is written without WAL on a server of
 * wal_level minimal (and its index builds too), which is the server's
 * setting, not the importer's (tests/pg.bash's throwaway server has it;
 * a server that replicates cannot).  Only importers write samples, and
 * they queue on the lock, so the table found empty is empty.
 *
 * Inside the import's transaction, after the queueing lock: a failed
 * import rolls the dropped indexes back with its rows, and the next
 * importer finds the table as this one left it.  The indexes are gone
 * until commit, which takes PostgreSQL's exclusive lock on sample:
 * readers of the (empty) table wait for the first import to end.
 */
#include <string.h>

#include "vsb.h"
#include "store_be.h"

int vsb_bulk_begin(struct vsb_store *s, int *deferred)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_stmt *st;
	int rc;

	*deferred = 0;
	if (!o->index_drop_sql)
		return 0;
	if (vsb_store_prepare(s, "looking at the samples",
			      "SELECT 1 FROM sample LIMIT 1", &st))
		return VSB_EXIT_ERROR;
	rc = o->step(st);
	o->finalize(st);
	if (rc < 0)
		return vsb_store_fail(s, "looking at the samples");
	if (rc == 1)
		return 0;	/* samples stored: the indexes stay */
	if (o->exec(s->db, o->index_drop_sql))
		return vsb_store_fail(s, "setting the indexes aside for the first load");
	*deferred = 1;
	return 0;
}

int vsb_bulk_end(struct vsb_store *s, int deferred)
{
	if (deferred && s->ops->exec(s->db, s->ops->index_build_sql))
		return vsb_store_fail(s, "indexing the samples");
	return 0;
}
