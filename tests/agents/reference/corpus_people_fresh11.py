# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""An eleventh fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh11``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), the decisions (docs/decisions/), the git history
nor the rows of any other corpus (the tables of test_corpus.py, the rows of every corpus_people*.py) —
only the eighth fresh set's module docstring (for the format and the rules; read through ``ast`` so that
no row was printed), the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py and
``_measure``, ``_label`` and the ``_DETERMINER`` pattern in test_corpus_people.py, their bodies only) and
the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has no start). It
did not search the repository for phrases and did not run the parser nor the measure on these rows. Each
row was labelled with what a careful human assistant would do with the two timed apps installed (a focus
timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a guess. It is measured
once, by someone else, after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone, with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, Notes, quizzes on anything but the four arithmetic kinds
— scores reported and greetings). An activity is written as the person would want the timer labelled,
cut from the request in their words (a leading "my"/"the" does not count: the measure drops it).

Written as new voices — a primary-school pupil typing alone, a night-shift security guard, a marathon
runner, a translator on deadline, a farmer, a retired engineer, a call-centre agent between calls, a med
student, a mother of twins, a bilingual person switching language mid-sentence, people in all caps or
all lower case, voice-to-text with no punctuation — on phones and laptops: typos, slang, numbers as
words and digits ("1hr", "0.5h", "45'", "一个钟", "俩小时"), emoji, mixed zh/en in both tables, some
traditional characters, questions ("could you…?", "能不能…" with a full-width question mark), context first, durations before or after
the verb. The mix, per language: about a third focus starts (with and without an activity), a fifth
quizzes (with and without a kind), stops (also with both running, stopping one and keeping the other),
status, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH11_EN = """
can u start a 25 min focus for my essay pls | start | 1500 | essay
night shift again. could you run a 45 minute focus timer while I do the incident log? | start | 2700 | incident log
focus 1hr translating chapter 4 | start | 3600 | translating chapter 4
Could you start a focus session of 90 minutes for the contract translation? | start | 5400 | contract translation
FOCUS TIMER 20 MINUTES PLEASE | start | 1200 | -
0.5h focus, tax forms | start | 1800 | tax forms
45' focus on the interval plan | start | 2700 | interval plan
start a focus timer for one and a half hours | start | 5400 | -
twins finally asleep!!! quick 30 min focus pls, reading time 📖 | start | 1800 | reading time
can you do a focus for 15 mins i wanna finish my maths homework | start | 900 | maths homework
Set a focus of 50 minutes on the pump schematics, if you would. | start | 3000 | pump schematics
between calls, gimme a 10 min focus for call notes | start | 600 | call notes
pls start focusing 3 hours, harvest accounts | start | 10800 | harvest accounts
Start a focus session: 40 minutes, German subtitles | start | 2400 | German subtitles
focus for an hour and 15 minutes on the lab report | start | 4500 | lab report
I'd like a two-hour focus block for the grant proposal | start | 7200 | grant proposal
12 hour focus timer for the overnight watch pls | start | 43200 | overnight watch
focus 5 min | start | 300 | -
Could you start me a focus session for 35 minutes? Working on the quarterly report. | start | 2100 | quarterly report
pomodoro 25 min, physiology | start | 1500 | physiology
start focus 1 hour 30 min | start | 5400 | -
focus timer, twenty minutes, laundry folding | start | 1200 | laundry folding
run a focus for 8h | start | 28800 | -
hey can you start a 1 hr focus on my thesis intro | start | 3600 | thesis intro
focus mode for 45 minutes — marathon training log | start | 2700 | marathon training log
start a focus, 2.5 hours, glossary cleanup | start | 9000 | glossary cleanup
i want to focus on my spelling words for 10 minutes | start | 600 | spelling words
FOCUS 1 HOUR ON THE INVOICES | start | 3600 | invoices
start focus timer 40min pls 🙏 | start | 2400 | -
need to concentrate half an hour on the seed order, start the focus timer | start | 1800 | seed order
Please begin a 25-minute focus session for case study review. | start | 1500 | case study review
one hour focus for ECG practice | start | 3600 | ECG practice
start a 3 hour focus | start | 10800 | -
focus 20m | start | 1200 | -
yo start focus 45 min for the playlist edit | start | 2700 | playlist edit
lemme get a 15 minute focus for stretching | start | 900 | stretching
start a 40 min focus on the 合同 translation | start | 2400 | 合同 translation
okay start a focus timer for forty five minutes I'm going to work on the rota | start | 2700 | rota
45 minutes of focus on pharmacology flashcards please | start | 2700 | pharmacology flashcards
fokus timer 30 minuts for my blog post | start | 1800 | blog post
can i do a times tables quiz for 5 minutes | quiz | 300 | multiplication
quiz me on addition for 10 min | quiz | 600 | addition
start a 15 minute arithmetic quiz | quiz | 900 | mixed
subtraction drill, 3 minutes, go | quiz | 180 | subtraction
MULTIPLICATION QUIZ 20 MINUTES | quiz | 1200 | multiplication
could you give me a quick mental maths quiz, 2 minutes? | quiz | 120 | mixed
math quiz half an hour mixed | quiz | 1800 | mixed
start a quiz on take-away for 5 mins | quiz | 300 | subtraction
i want a multiplying quiz 1 hour | quiz | 3600 | multiplication
arithmetic quiz 45 mins plz | quiz | 2700 | mixed
start an adding-up quiz, seven minutes | quiz | 420 | addition
quiz 4 min multiplication | quiz | 240 | multiplication
could you start a 10 minute times-table quiz for the twins? | quiz | 600 | multiplication
between calls — 5 min maths quiz to wake my brain up | quiz | 300 | mixed
mental arithmetic quiz for 90 seconds | quiz | 90 | mixed
quiz: minus, 8 minutes | quiz | 480 | subtraction
do a mult quiz for quarter of an hour | quiz | 900 | multiplication
start the maths quiz for 30 min, all kinds mixed | quiz | 1800 | mixed
timed multiplication practice, 6 min | quiz | 360 | multiplication
ARITHMETIC QUIZ FOR TEN MINUTES PLEASE | quiz | 600 | mixed
start a math quiz 20m | quiz | 1200 | mixed
addition quiz for 12 minutes, my daughter is doing it | quiz | 720 | addition
stop the timer | stop
STOP | stop
end my focus session, a call came in | stop
cancel the quiz pls | stop
stop the quiz but keep the focus running | stop
ok im done stop focusing | stop
kill the timer | stop
can you end the quiz? the twins are crying | stop
stop focus, leave the quiz going | stop
abort the focus session | stop
i give up stop the maths quiz | stop
please stop the session | stop
how long left? | status
how much time is left on my focus | status
is the quiz still running? | status
whats running right now | status
how many minutes till my focus ends | status
time left on the quiz? | status
am i still in a focus session | status
HOW LONG DO I HAVE LEFT | status
is the timer still going | status
when does my focus finish? | status
status? | status
what can the focus timer do? | help
remind me to call the vet at 5 | help
set an alarm for 6am | help
i already did a 30 min focus this morning | help
my sister did a multiplication quiz for 10 minutes yesterday | help
don't start a focus for 25 minutes | help
if I started a 2 hour focus would it keep running when my phone is locked? | help
i'll do a quiz later, maybe 15 minutes after dinner | help
quiz me on French verbs for 10 minutes | help
add buy milk to my notes | help
got 18 out of 20 on the times tables quiz!! | help
hello | help
why is it called pomodoro | help
tell me a joke about tomatoes | help
division quiz for 5 minutes | help
tomorrow at 9 start a 1 hour focus | help
my coworker keeps starting focus timers lol | help
thanks! | help
no focus today, I'm too tired | help
what's 7 times 8 | help
could the quiz do fractions for 10 min? | help
how long should a pomodoro be? | help
geography quiz 10 minutes | help
good night, shift's over | help
start a focus session | ask
let's do 20 minutes | ask
start a quiz | ask
focus pls | ask
can we do an hour? | ask
focus for 30 hours | range
start a 2 hour multiplication quiz | range
quiz for 90 minutes | range
focus timer 2 days | range
a 25 hour focus on the backlog please | range
"""

HELD_OUT_FRESH11_ZH = """
帮我开个25分钟的专注，写论文 | start | 1500 | 写论文
专注一个钟 | start | 3600 | -
开始专注俩小时，翻译合同 | start | 7200 | 翻译合同
能不能帮我开一个45分钟的专注？我要背单词 | start | 2700 | 背单词
我要专注半小时，数学作业 | start | 1800 | 数学作业
专注计时90分钟 | start | 5400 | -
夜班巡逻完了，开个20分钟专注写交班记录 | start | 1200 | 写交班记录
专注1.5h，复习病理 | start | 5400 | 复习病理
開始專注三十分鐘 | start | 1800 | -
幫我開一小時的專注，整理帳目 | start | 3600 | 整理帳目
start focus 40分钟 | start | 2400 | -
来个番茄钟，25分钟 | start | 1500 | -
两个半小时专注，赶稿 | start | 9000 | 赶稿
专注十五分钟，拉伸 | start | 900 | 拉伸
给我开个专注 45' 写训练计划 | start | 2700 | 写训练计划
专注模式 3小时 | start | 10800 | -
双胞胎睡了！！快给我开30分钟专注，看书📖 | start | 1800 | 看书
帮我开一个专注，时长一小时二十分钟，主题是灌溉方案 | start | 4800 | 灌溉方案
专注 8 小时 | start | 28800 | -
接下来50分钟专注画电路图 | start | 3000 | 画电路图
专注10分钟整理通话记录 | start | 600 | 整理通话记录
开始专注，二十五分钟 | start | 1500 | -
請幫我開一個四十分鐘的專注，讀解剖學 | start | 2400 | 讀解剖學
专注一小时 for the thesis | start | 3600 | thesis
能帮我开个专注吗，半个钟，回邮件 | start | 1800 | 回邮件
专注12小时 值夜班 | start | 43200 | 值夜班
开个专注 一个半小时 | start | 5400 | -
专注二十分钟 | start | 1200 | -
先专注5分钟 | start | 300 | -
開專注兩小時，寫報告 | start | 7200 | 寫報告
定个专注，四十五分钟，复盘比赛 | start | 2700 | 复盘比赛
专注计时器 一小时十五分 改简历 | start | 4500 | 改简历
我需要专注三刻钟准备面试 | start | 2700 | 准备面试
帮我专注25min，练字 | start | 1500 | 练字
專注 15 分鐘 | start | 900 | -
开一个 focus session 60分钟 | start | 3600 | -
帮我开一个专注四十分钟我要复习生理学 | start | 2400 | 复习生理学
专注两小时，做PPT | start | 7200 | 做PPT
来个专注吧 1hr 写周报 | start | 3600 | 写周报
来个5分钟的乘法测验 | quiz | 300 | multiplication
我想做10分钟加法测验 | quiz | 600 | addition
口算测验十五分钟 | quiz | 900 | mixed
减法小测 3分钟 | quiz | 180 | subtraction
能不能给我出个乘法口诀测验，20分钟？ | quiz | 1200 | multiplication
算术测验半小时 | quiz | 1800 | mixed
开始一个混合运算测验，十分钟 | quiz | 600 | mixed
做一个小时的乘法测验 | quiz | 3600 | multiplication
加法测验 7分钟 | quiz | 420 | addition
给双胞胎开个10分钟的口算测验 | quiz | 600 | mixed
考我减法，八分钟 | quiz | 480 | subtraction
數學小測驗二十分鐘 | quiz | 1200 | mixed
乘法quiz 4分钟 | quiz | 240 | multiplication
来个 math quiz 一刻钟 | quiz | 900 | mixed
出点加法题考考我，五分钟 | quiz | 300 | addition
乘法口算 45分钟 | quiz | 2700 | multiplication
算术小测试 90秒 | quiz | 90 | mixed
开始乘法测验一小时 | quiz | 3600 | multiplication
减法测验 半个钟 | quiz | 1800 | subtraction
我要做加法测验 十二分钟 | quiz | 720 | addition
速算测验 6分钟 | quiz | 360 | mixed
能不能开一个乘法小测，两分钟就行？ | quiz | 120 | multiplication
來個加法測驗 十分鐘 | quiz | 600 | addition
停止专注 | stop
把计时器停掉 | stop
结束测验 | stop
把测验停了，专注继续 | stop
不做了，停掉乘法测验 | stop
取消专注 | stop
停！ | stop
來電話了，結束專注 | stop
专注先停掉，测验别动 | stop
关掉计时器 | stop
别计时了 | stop
stop 一下专注 | stop
还剩多久？ | status
专注还有几分钟 | status
测验还在进行吗 | status
现在在跑什么 | status
我的专注什么时候结束 | status
還剩多少時間 | status
计时器还在走吗 | status
测验还剩几分钟？ | status
专注开着没 | status
现在什么状态 | status
how long left 专注 | status
我还在专注中吗 | status
这个专注计时器怎么用？ | help
提醒我下午三点喂鸡 | help
明天早上六点叫我起床 | help
我刚才专注了一个小时 | help
我同事在做乘法测验 | help
不要开始专注 | help
如果我开两小时专注，锁屏还会计时吗？ | help
晚饭后我再做十分钟口算 | help
考我英语单词十分钟 | help
帮我记一下：明天交电费 | help
乘法测验我拿了满分！ | help
你好呀 | help
讲个笑话 | help
除法测验五分钟 | help
下周一开始每天专注两小时 | help
谢谢 | help
今天不想专注了 | help
7乘8等于几 | help
番茄钟为什么叫番茄钟 | help
我儿子昨天做了20分钟加法测验 | help
能做分数的测验吗？ | help
下班了，晚安 | help
历史小测验15分钟 | help
要是我中途停了专注会怎样 | help
来二十分钟吧 | ask
开个专注 | ask
开始测验 | ask
一小时，走起 | ask
帮我开个专注吧，今天效率太低 | ask
专注30小时 | range
乘法测验两小时 | range
口算测验90分钟 | range
专注两天 | range
開一個二十五小時的專注 | range
"""
