import re,collections,sys
def val(e):
    if e in ("None","timeout"): return None
    m=re.fullmatch(r"([+-]?)M(\d+)",e)
    if m: return (-1 if m.group(1)=="-" else 1)*(3000-int(m.group(2)))
    return int(e)
rows=[l.split() for f in sys.argv[1:] for l in open(f)]
loss_by=collections.defaultdict(list); same=0; tot=0
big=[]
for r in rows:
    gid,res,n,e0,best,played,e1=r[:7]
    a=val(e0); b=val(e1)
    if a is None or b is None: continue
    b=-b
    a=max(min(a,1500),-1500); b=max(min(b,1500),-1500)
    d=a-b
    tot+=1; same+= best==played
    loss_by[res].append(d)
    big.append((d,gid,res,int(n),e0,best,played,e1))
print("moves",tot,"same as rapfi",same, f"{same/tot:.2f}")
for res,v in loss_by.items():
    v2=[x for x in v]
    print(res,len(v),"mean loss",sum(v2)/len(v2), "n>50",sum(x>50 for x in v2),"n>100",sum(x>100 for x in v2), "sum", sum(v2))
# by move number bucket
bk=collections.defaultdict(list)
for d,gid,res,n,*_ in big: bk[(n//10)*10].append(d)
for k in sorted(bk): print("stones",k,len(bk[k]),"mean loss %.1f"%(sum(bk[k])/len(bk[k])), "n>50", sum(x>50 for x in bk[k]))
big.sort(reverse=True)
for x in big[:25]: print(x)
