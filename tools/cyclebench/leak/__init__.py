"""`make ctgrind` (ctgrind.py: each variant under valgrind's memcheck with
its secret marked) and `make leak-table` (table.py: that and `cyclebench
leak`'s t-test for every variant, beside its cycles/byte). The C side
(the t-test, Welch, the ctgrind driver) is in leak/ at the top."""
