"""Printed positions read back through the binding: the winning moves of anyleaf and every
(groups in parentheses: one component of the heaps a move split a heap into) and options with
empty heaps left out are valid input to solve and options, the same positions."""
import grundy

KAYLES = 'game k = octal "0.77";'


def test_groups_read_back_under_anyleaf_and_every():
    p = grundy.Program(KAYLES)
    for conv in ("anyleaf", "every"):
        s = p.solve("k(7)", conv)
        assert s.outcome == "N"
        assert any(m.startswith("(") for m in s.winning_moves), s.winning_moves
        for m in s.winning_moves:
            assert p.solve(m, conv).outcome == "P", (conv, m)   # a winning move leaves a loss
    # one component of two heaps is not two components: under anyleaf k(1) + k(5) is N
    assert p.solve("(k(1) + k(5))", "anyleaf").outcome == "P"
    assert p.solve("k(1) + k(5)", "anyleaf").outcome == "N"


def test_empty_heaps_left_out():
    p = grundy.Program("")
    assert [o.position for o in p.options("kayles(4) + *1")][-1] == "kayles(4)"
    assert p.solve("nim(1)").winning_moves == ["*0"]
    s = p.solve("kayles(4) + *1 + *0")
    assert (s.outcome, s.sg) == ("P", 0)
