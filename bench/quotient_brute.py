# quotient_brute: an independent lower bound on the order of a misere quotient of an octal
# game, by brute force (no code shared with grundy): sums of heaps <= H with total <= TX,
# told apart by the misere outcome of adding every sum of heaps <= H with total <= TZ.
#   python3 bench/quotient_brute.py H TX TZ CODE
# Measured (docs/quotients.md): Kayles, H=20, 26, 26: 24 classes (grundy: |Q_20| = 24);
# Dawson's Kayles, H=14, 32, 32: 24 classes (grundy: |Q_14| = 24).
import sys
from functools import lru_cache
sys.setrecursionlimit(100000)
H=int(sys.argv[1]); TX=int(sys.argv[2]); TZ=int(sys.argv[3]); code=sys.argv[4] if len(sys.argv)>4 else "0.77"
digits=[int(c) for c in code.split('.')[1]]
def moves(n):
    out=set()
    for k,d in enumerate(digits, start=1):
        if k>n: break
        r=n-k
        if d&1 and r==0: out.add(())
        if d&2 and r>0: out.add((r,))
        if d&4:
            for a in range(1,r):
                b=r-a
                if a<=b: out.add((a,b))
    return out
MV={n:moves(n) for n in range(0,TX+TZ+1)}
@lru_cache(maxsize=None)
def isP(pos):
    # misere: a position with no move is N
    anymove=False
    for i,h in enumerate(pos):
        if i and pos[i-1]==h: continue
        for m in MV[h]:
            anymove=True
            rest=pos[:i]+pos[i+1:]+tuple(x for x in m if x>0)
            if isP(tuple(sorted(rest))): return False
    return anymove
def parts(total, mx):
    # multisets of heaps in 1..mx (heaps with moves only) with sum <= total
    res=[()]
    def rec(prefix, rem, lo):
        for h in range(lo, min(mx,rem)+1):
            if not MV[h]: continue
            p=prefix+(h,)
            res.append(p); rec(p, rem-h, h)
    rec((), total, 1)
    return res
X=parts(TX,H); Z=parts(TZ,H)
sig={}
for x in X:
    s=tuple(isP(tuple(sorted(x+z))) for z in Z)
    sig.setdefault(s,x)
print("classes told apart:",len(sig),"positions",len(X),"extensions",len(Z))
