-- Migration 0095 filled invoices.currency by updating every invoice: each index of invoices then held every row
-- twice, and VACUUM frees the old entries without shrinking the trees. The trigram index the list's search box reads
-- doubled (110 MB against 55 MB at 1,000,000 invoices) and a rare invoice number took 78 ms to find instead of 10-18;
-- rebuilt here, with the other indexes of invoices. A later migration that fills a column of a large table sets a
-- constant default instead (no rewrite) or rebuilds the indexes it bloats.
REINDEX TABLE "invoices";
