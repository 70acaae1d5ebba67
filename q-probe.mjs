import SQLite from 'better-sqlite3';
const db = new SQLite(process.argv[2]);
db.pragma('cache_size = -65536'); db.pragma('mmap_size = 268435456');
const time = (label, sql, params=[]) => { const st = db.prepare(sql); st.all(...params); const t0=performance.now(); for (let i=0;i<50;i++) st.all(...params); console.log(label, ((performance.now()-t0)/50).toFixed(2),'ms'); console.log(db.prepare('explain query plan '+sql).all(...params).map(r=>'   '+r.detail).join('\n')); };
const pl = `(t.user_no like '%chan%' escape '\\' or t.username like '%chan%' escape '\\' or t.name_hk like '%chan%' escape '\\' or t.name_en like '%chan%' escape '\\')`;
const w = (s) => `from users t left join student_classes y on y.user_id = t.id and y.school_year_id = 1 where t.user_type='STUDENT' and ${s} and t.status='1'`;
const cols = `t.id, t.user_no, t.username, t.name_hk, t.name_en, t.email, t.gender, t.status, t.active, y.class_id, y.student_number`;
for (const pass of [1,2]) {
time('list plain', `select ${cols} ${w(pl)} order by t.name_en asc, t.id asc limit 50 offset 300`);
time('list nosearch', `select ${cols} ${w('1=1')} order by t.name_en asc, t.id asc limit 50 offset 300`);
time('list nosearch p1 code', `select ${cols} ${w('1=1')} order by t.user_no asc, t.id asc limit 50 offset 0`);
if (pass===1) { db.exec('create index if not exists probe_en on users(user_type, name_en)'); db.exec('analyze'); }
}
db.exec('drop index probe_en');
