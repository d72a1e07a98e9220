# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A ninth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh9``) writing blind: it did not open the grammar (agents/**), the apps'
phrasing declarations (miniapps/*/phrasings.json), docs/decisions/ nor the rows of any corpus — only the
eighth fresh set's module docstring (for the format and the rules; the ``sed -n 1,36p`` that printed it
also showed that set's first two rows, a lab report and a chem revision focus, which nothing here copies),
the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py; ``_measure``, ``_label`` and
the ``_DETERMINER`` pattern in test_corpus_people.py, their bodies only) and the apps' manifests for their
bounds (focus up to 24 hours, quiz up to 1 hour; Notes has no start). It did not search the repository
for phrases, did not read git history, and did not run the parser nor the measure on these rows. Each
row was labelled with what a careful human assistant would do with the two timed apps installed (a focus
timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a guess. It is measured
once, by someone else, after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone, with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions, jokes, greetings, negations, past tense, hypotheticals, someone else's doing, plans for later,
things it cannot do — reminders, alarms, Notes, quizzes on anything but the four arithmetic kinds, such
as vocabulary, division or fractions — and scores reported). An activity is written as the person would
want it labelled, cut from the request in their words. Borderline calls: a "pomodoro"/番茄钟 with no
number, a quiz with no length and a kind with no length are ``ask``; a quiz with no kind is ``mixed``;
"times tables"/乘法口诀 is multiplication and "take away"/"minus" subtraction; a length with work named
but no app ("30 min on the slides") is a focus start; a bare number with a focus and a task ("focus for
45 on my taxes") is read as minutes.

Written as new voices — night-shift nurses, warehouse and stock-room workers, a chef, retirees, a
gamer, researchers and grad students, parents and grandparents of young children practising sums,
language learners, exam-crammers, people dictating by voice (no punctuation, homophones: 专住, 分中,
"two ours"), people in a hurry — typing on phones and laptops: typos, slang, numbers as words (forty
five, 二十五, 一刻钟, 三刻钟, 半个钟头, 两个钟, 1.5 hours, 90min), emoji, mixed zh/en in both tables, some
traditional characters, polite and terse, context first, rambling, the duration before the verb or at
the end. The mix, per language: about a third focus starts (with and without an activity), a fifth
quizzes (with and without a kind, lengths in seconds, minutes, fractions of an hour), stops (also with
both running, stopping one and keeping the other), status, a fifth that must not act, a few asks and a
few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH9_EN = """
night shift, need to get my charting done, 30 min focus pls | start | 1800 | charting
start a focus timer for forty five minutes, restocking aisle 7 | start | 2700 | restocking aisle 7
25 min focus on the grant proposal | start | 1500 | grant proposal
ok chef here. prep list. give me a 20 minute focus | start | 1200 | prep list
focus for 1.5 hours on my dissertation chapter | start | 5400 | dissertation chapter
start focus ninety minutes | start | 5400 | -
hey can you start a 10 min focus for me? thx | start | 600 | -
set focus timer 50m - anki reviews | start | 3000 | anki reviews
start a focus for twenty five minutes on the inventory count | start | 1500 | inventory count
2 hour focus block for speedrun practice | start | 7200 | speedrun practice
Could you please start a focus session of 40 minutes for my watercolour painting. Thank you. | start | 2400 | watercolour painting
focus: 45 mins, topic: pharmacology flashcards | start | 2700 | pharmacology flashcards
need to lock in for an hour on my thesis lit review | start | 3600 | thesis lit review
Start focusing now, 35 minutes. | start | 2100 | -
timer 20 min focus pls 🙏 | start | 1200 | -
could u do a half hour focus for inbox cleanup | start | 1800 | inbox cleanup
fokus 25 mins on essay plz | start | 1500 | essay
start a focsu session for 30 minutes | start | 1800 | -
lab meeting at 3 so 40 min focus on the slides til then | start | 2400 | slides
Begin a 55-minute focus session: quarterly stock reconciliation. | start | 3300 | quarterly stock reconciliation
focus for an hour and a quarter on coding | start | 4500 | coding
30 mins of focus for 背单词 please | start | 1800 | 背单词
three quarters of an hour focus, writing cover letters | start | 2700 | writing cover letters
focus time! 20 minutes, sorting the pill organisers | start | 1200 | sorting the pill organisers
1 hr focus, seminar reading | start | 3600 | seminar reading
45 minute focus please, NCLEX prep | start | 2700 | NCLEX prep
start the pomodoro thing for 25 minutes | start | 1500 | -
A two-hour focus on the grant budget, please. | start | 7200 | grant budget
start focus for twenty minutes on my german homework | start | 1200 | german homework
focus 12 min | start | 720 | -
8 hour focus for data entry pls, long day ahead | start | 28800 | data entry
Focus session, 90min, for the mock exam | start | 5400 | mock exam
yo start a 1hr focus for orgo cramming | start | 3600 | orgo cramming
a 5 minute focus for tidying my desk | start | 300 | tidying my desk
focus 100 minutes | start | 6000 | -
plz focus timer 25min, email triage | start | 1500 | email triage
start a deep work session, 2 and a half hours, paper revisions | start | 9000 | paper revisions
I'd like to focus for three hours on the novel | start | 10800 | novel
ok ok 40 mins focus starting now, spanish listening | start | 2400 | spanish listening
focus for 45 on my taxes | start | 2700 | taxes
start a focus for two ours on the budget | start | 7200 | budget
agent start focus for 15 minutes on filing | start | 900 | filing
my 7 yo wants to practise adding, can you do a 5 minute addition quiz | quiz | 300 | addition
times tables quiz 10 mins | quiz | 600 | multiplication
quick subtraction drill, 3 minutes | quiz | 180 | subtraction
start a maths quiz for 15 minutes | quiz | 900 | mixed
quiz me for two minutes, mixed | quiz | 120 | mixed
arithmetic quiz, twenty minutes please | quiz | 1200 | mixed
start a 4 minute adding quiz for my daughter | quiz | 240 | addition
multiplication practice 90 seconds | quiz | 90 | multiplication
give me a half hour mental arithmetic quiz | quiz | 1800 | mixed
quiz: minus questions, 6 min | quiz | 360 | subtraction
start quiz 45 sec multiplication | quiz | 45 | multiplication
an hour long math quiz, go | quiz | 3600 | mixed
warm up my brain with a 5 min quiz | quiz | 300 | mixed
Could you set up an addition quiz of eight minutes for my grandson? | quiz | 480 | addition
start a subtraction quiz for ten minutes | quiz | 600 | subtraction
quizz me 7 mins multiplicaton | quiz | 420 | multiplication
need to practise mental maths before my shift, 10 min quiz pls | quiz | 600 | mixed
take away quiz, 5 minutes | quiz | 300 | subtraction
times table drill for a quarter of an hour | quiz | 900 | multiplication
quiz 20m | quiz | 1200 | mixed
let's do a 12 minute multiplication quiz 🧮 | quiz | 720 | multiplication
practice quiz for 25 minutes | quiz | 1500 | mixed
quiz for my kid, 5 min, 加法 pls | quiz | 300 | addition
stop the timer | stop
end focus, my patient's call light is on | stop
cancel the quiz | stop
stop the quiz but keep my timer going | stop
kill the focus session, leave the quiz running | stop
ok I'm done, stop it | stop
end the quiz now pls, she's crying lol | stop
stop everything | stop
I need to quit the quiz early | stop
finish my focus early, something came up | stop
abort the timer | stop
how long left? | status
is my focus timer still running | status
what's running right now | status
how much time is left on the quiz | status
how many mins till my break | status
timer status | status
am I still in a focus session? | status
what's left on the clock | status
is the quiz still on or did it end | status
how far into the session am I | status
hi there | help
how does the quiz work? | help
what can you do | help
I focused for two hours this morning 💪 | help
don't start a timer yet, still making coffee | help
tomorrow at 9 start a 30 minute focus | help
remind me to take my meds at 8 | help
set an alarm for 5:30am | help
quiz me on spanish vocab for 10 minutes | help
can you do a division quiz for 5 min | help
my son got 17 out of 20 on the addition quiz! | help
if I started a 3 hour focus would it stop when I close the app? | help
my coworker does 25 min pomodoros, is that enough? | help
lol my cat just walked across the keyboard | help
thanks that was great | help
add "order more gauze" to my notes | help
what's 12 times 12 | help
i did a 20 min quiz earlier and got 14 right | help
can you make the timer ring louder | help
after lunch I'll do an hour of focus | help
what's the longest focus I can set? | help
would a 10 min quiz be too long for a 6 year old? | help
quiz me on the periodic table, 15 min | help
start a focus session | ask
let's do 30 minutes | ask
quiz me | ask
one pomodoro please | ask
can you start a timer? | ask
20 mins pls | ask
ok set me up for an hour | ask
I want to practise multiplication | ask
focus for 30 hours straight on the game jam | range
multiplication quiz for 2 hours | range
start a focus session for 2 days | range
90 minute maths quiz | range
set focus 25 hours | range
"""

HELD_OUT_FRESH9_ZH = """
帮我开个专注，二十五分钟，背单词 | start | 1500 | 背单词
专注一小时写论文 | start | 3600 | 写论文
我要专注45分钟复习病理 | start | 2700 | 复习病理
上夜班要补护理记录，开个半个钟头的专注 | start | 1800 | 补护理记录
开始专注一刻钟 | start | 900 | -
專注九十分鐘，寫報告 | start | 5400 | 寫報告
給我開一個四十分鐘的專注 | start | 2400 | -
来个番茄钟25分钟，整理库存 | start | 1500 | 整理库存
开个focus 30分钟 写paper | start | 1800 | 写paper
专注一个半小时 刷题 | start | 5400 | 刷题
专注两小时，期末复习 | start | 7200 | 期末复习
帮我定个专注时间 二十分钟 我要练字 | start | 1200 | 练字
开始专注三十分钟看文献 | start | 1800 | 看文献
专注50分钟，做PPT | start | 3000 | 做PPT
麻烦帮我开始一个专注，时长一小时，内容是写周报 | start | 3600 | 写周报
先专注10分钟吧 | start | 600 | -
专注 1.5h 写代码 | start | 5400 | 写代码
专注三刻钟，练听力 | start | 2700 | 练听力
我要开始专注了，四十五分钟 | start | 2700 | -
开一个20min的专注 背课文 | start | 1200 | 背课文
切菜备料，专注十五分钟 | start | 900 | 切菜备料
开始专注 两个钟 | start | 7200 | -
专注一小时十五分钟 改稿子 | start | 4500 | 改稿子
专注八个小时，仓库盘点 | start | 28800 | 仓库盘点
我想专注一会儿，25分钟，学日语 | start | 1500 | 学日语
专注60分钟 读书 | start | 3600 | 读书
打开专注模式 三十五分钟 | start | 2100 | -
請幫我開始專注二十分鐘，我要練琴 | start | 1200 | 練琴
25分钟专注，开始！ | start | 1500 | -
专注半小时整理病历 | start | 1800 | 整理病历
专注三小时练枪 | start | 10800 | 练枪
开始专注，时长：一个钟头，任务：实验记录 | start | 3600 | 实验记录
专注七十分钟 | start | 4200 | -
番茄 25min 写作业 | start | 1500 | 写作业
专注二十五分钟背GRE单词 | start | 1500 | 背GRE单词
明天考试，先专注两个半小时复习 | start | 9000 | 复习
专注四十分钟 给客户回邮件 | start | 2400 | 给客户回邮件
帮忙开个专注呗，一个小时，搞毕设 | start | 3600 | 搞毕设
专住三十分钟 写教案 | start | 1800 | 写教案
专注二十分中 | start | 1200 | -
给孩子出个加法测验，五分钟 | quiz | 300 | addition
乘法口诀练习十分钟 | quiz | 600 | multiplication
来个减法小测，三分钟 | quiz | 180 | subtraction
算术测验十五分钟 | quiz | 900 | mixed
口算练习 二十分钟 | quiz | 1200 | mixed
做个乘法测验 90秒 | quiz | 90 | multiplication
出一套混合运算的题，半小时 | quiz | 1800 | mixed
帮我女儿开个加法练习，八分钟 | quiz | 480 | addition
數學小測驗十分鐘 | quiz | 600 | mixed
减法题 练5分钟 | quiz | 300 | subtraction
九九乘法表测验，一刻钟 | quiz | 900 | multiplication
开始测验 2分钟 | quiz | 120 | mixed
quiz 一下，乘法，六分钟 | quiz | 360 | multiplication
来个一小时的算术测验 | quiz | 3600 | mixed
给我孙子弄个加法题，七分钟 | quiz | 420 | addition
口算小测 四十五秒 | quiz | 45 | mixed
开一个10分钟的减法quiz | quiz | 600 | subtraction
出点算术题考考我，十二分钟 | quiz | 720 | mixed
乘法练习 二十五分钟 | quiz | 1500 | multiplication
开始一个加法测验时间四分钟 | quiz | 240 | addition
練習乘法，三十分鐘 | quiz | 1800 | multiplication
我想做个数学测验，半个小时 | quiz | 1800 | mixed
心算测验 5min | quiz | 300 | mixed
测验五分中 加法 | quiz | 300 | addition
停止计时 | stop
结束专注 | stop
停掉测验 | stop
把测验停了，专注继续 | stop
结束专注，测验别停 | stop
不做了，停下来 | stop
取消番茄钟 | stop
停 | stop
关掉测验 | stop
提前结束这次专注 | stop
把计时器停掉 | stop
全部停掉 | stop
还剩多久？ | status
专注还有几分钟 | status
测验还剩多少时间 | status
现在在运行什么 | status
计时器还在走吗 | status
我的番茄钟还剩多少 | status
还有多久休息 | status
專注還剩幾分鐘？ | status
测验结束了没 | status
现在进行到哪了 | status
你好 | help
测验是怎么玩的？ | help
你能做什么 | help
我昨天专注了三个小时 | help
先别开始计时，我还在换衣服 | help
明天早上八点帮我开始专注一小时 | help
提醒我五点吃药 | help
定个早上六点的闹钟 | help
考我英语单词，十分钟 | help
来个除法测验五分钟 | help
我儿子加法测验得了满分！ | help
如果我开两小时专注，锁屏会停吗？ | help
我同事每天专注四个小时 | help
哈哈哈哈 | help
谢谢啦 | help
帮我记一下：明天买纸巾 | help
7乘8等于多少 | help
最长能专注多久？ | help
下午我再专注一小时 | help
晚安 | help
计时器能换个铃声吗 | help
这测验题目也太难了吧 | help
给我出几道分数题，十分钟 | help
开始专注 | ask
来十分钟 | ask
考考我 | ask
开个番茄钟 | ask
帮我计个时 | ask
半小时走起 | ask
我想练练乘法 | ask
专注三十个小时 | range
乘法测验两个小时 | range
专注两天 | range
算术测验九十分钟 | range
开一个25小时的专注 | range
測驗一個半小時 | range
"""
