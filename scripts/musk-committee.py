"""A committee of VGPMIL fits on MUSK: the fixed split, plus 5 re-drawn fit/valid partitions of
each split's training bags (stratified 80/20, seeded; test bags unchanged); mean instance
probability over the 6 fits, bag = its most suspicious instance; mean test bag AUC over the 5 splits.

usage: python3 scripts/musk-committee.py musk1|musk2 [eval-gp flags, e.g. --variance 1]
(runs target/debug/ich eval-gp --kernel-steps 0 six times, in a temporary folder)
"""
import csv, random, subprocess, sys, collections, tempfile
tmp=tempfile.mkdtemp(prefix='musk-committee-')
d='../shared/data'
ds=sys.argv[1]; extra=sys.argv[2:]
nrep=5
feat=f'{d}/mil/{ds}.csv'; spl=f'{d}/splits/{ds}_5split.csv'
rows=list(csv.DictReader(open(spl)))
labels={}
for r in csv.reader(open(feat)):
    labels[r[1]]=int(float(r[0]))
def auc(s,y):
    pos=[a for a,b in zip(s,y) if b==1]; neg=[a for a,b in zip(s,y) if b==0]
    c=sum((p>n)+0.5*(p==n) for p in pos for n in neg); return c/len(pos)/len(neg)
inst=collections.defaultdict(list)  # (split,bag,inst)->probs
base={}
for rep in range(nrep+1):
    out=[]
    for s in range(5):
        sr=[r for r in rows if int(r['split'])==s]
        if rep==0:
            out+=sr; continue
        tr=[r['bag'] for r in sr if r['role']!='test']
        rng=random.Random(1000*rep+s)
        pos=[b for b in tr if labels[b]==1]; neg=[b for b in tr if labels[b]==0]
        rng.shuffle(pos); rng.shuffle(neg)
        v=set(pos[:round(len(pos)*0.2)]+neg[:round(len(neg)*0.2)])
        for r in sr:
            role=r['role'] if r['role']=='test' else ('valid' if r['bag'] in v else 'fit')
            out.append({'split':s,'bag':r['bag'],'role':role})
    fn=f'{tmp}/{ds}_{rep}.csv'
    with open(fn,'w') as f:
        w=csv.DictWriter(f,['split','bag','role']); w.writeheader(); w.writerows(out)
    sp=f'{tmp}/{ds}_{rep}_sl.csv'
    subprocess.run(['./target/debug/ich','-q','eval-gp','--features',feat,'--splits',fn,'--slice-predictions',sp,'--kernel-steps','0']+extra,check=True,stdout=subprocess.DEVNULL)
    for r in csv.DictReader(open(sp)):
        if r['set']!='test': continue
        inst[(int(r['split']),r['bag'],r['instance'])].append(float(r['probability_raw']))
def score(k):
    res=[]
    for s in range(5):
        bags=collections.defaultdict(float)
        for (sp,b,i),v in inst.items():
            if sp!=s: continue
            m=sum(v[:k])/k
            bags[b]=max(bags[b],m)
        bs=sorted(bags); res.append(auc([bags[b] for b in bs],[labels[b] for b in bs]))
    return sum(res)/5
print(ds, extra, 'single', round(score(1),4), 'ens6', round(score(nrep+1),4))
