# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A fourteenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh14``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the rows of any other corpus
(test_corpus.py tables, any corpus_people*.py rows) nor git log, show or diffs, and it did not search the
repository for phrases. It read only the eighth fresh set's module docstring (for the format and the
rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py and ``_measure``,
``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their bodies only) and the apps'
manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has no timed start). It did not
run the parser nor the measure on these rows. Each row was labelled with what a careful human assistant
would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is
``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were written, and
no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone, or a
length of "maths" that could be a quiz or homework), ``range`` (a duration past the app's bound) and
``help`` (anything that must not act: questions about the apps, jokes, greetings, negations, past tense,
hypotheticals, someone else's doing, plans for later, things it cannot do — reminders, alarms, pausing,
Notes, quizzes on anything but the four arithmetic kinds, division included — and scores reported). An
activity is written as the person would want the timer labelled, cut from the request in their words: a
generic focus verb (focus on, work on) is left out, a verb that is the work itself (read, write, 写, 背) is
kept.

Written as new voices — a fisherman, a hotel receptionist on nights, a doctoral candidate in linguistics,
a kindergarten teacher, a plumber, an au pair, a stock trader, a chess player, a retired nurse learning
chat apps, two roommates sharing one phone, someone on a smartwatch (very short), someone writing formal
business English or formal 书面语 — typing on phones and laptops: typos, slang, numbers as words and
digits, emoji, mixed zh/en in both tables, some traditional characters, context first, durations before
or after the verb, questions that are requests and questions that are not. The mix, per language: about
a third focus starts (with and without an activity), a fifth quizzes (with a kind and without, durations
in various forms), stops (also with both running, stopping one and keeping the other), status, a fifth
that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH14_EN = """
night shift's dead quiet, gonna focus 45 min on the guest ledger | start | 2700 | guest ledger
Start a focus session of 25 minutes, please. | start | 1500 | -
focus 20m | start | 1200 | -
pls focus timer 1 hr, dissertation ch 3 | start | 3600 | dissertation ch 3
I'd like to concentrate on the phonology chapter for ninety minutes. | start | 5400 | phonology chapter
Kindly initiate a focus period of forty-five minutes for the quarterly report. | start | 2700 | quarterly report
ok timer 30 mins, tying flies | start | 1800 | tying flies
between jobs, 15 min focus on my invoices pls | start | 900 | invoices
kids are napping — focus 40 minutes, lesson plans | start | 2400 | lesson plans
start a 2 hour focus for chart review before the open | start | 7200 | chart review
Focus for an hour and a half on endgame studies | start | 5400 | endgame studies
could you start a 10 minute focus for me? gonna practise typing | start | 600 | practise typing
we share this phone lol — start 30 min focus for Mia's essay | start | 1800 | Mia's essay
set the focus timer to 50 minutes | start | 3000 | -
foucs 35 min plz | start | 2100 | -
25 min focus 🍅 | start | 1500 | -
quarter of an hour of focus, then I gotta run | start | 900 | -
need to grind through emails, focus 1h | start | 3600 | emails
Start focus: 3 hours, grant proposal | start | 10800 | grant proposal
begin a 20-minute focus block for reading | start | 1200 | reading
focus for 12 minutes | start | 720 | -
can u start a 2h focus sesh for coding | start | 7200 | coding
Please begin a focus session lasting 1.5 hours. | start | 5400 | -
alright, 55 minutes of deep work on the transcription | start | 3300 | transcription
focus 30 min, quote for the Hendersons | start | 1800 | quote for the Hendersons
Start an 8 hour focus for studying, long day ahead | start | 28800 | studying
just 90 seconds of focus, testing this thing | start | 90 | -
focus on the Sicilian for 40 min | start | 2400 | Sicilian
ugh ok. focus. 25 minutes. German vocab. | start | 1500 | German vocab
Hello dear, could you please start the focus timer for 20 minutes for my crossword. Thank you | start | 1200 | crossword
start a 45 min focus, visa paperwork | start | 2700 | visa paperwork
focus for 24 hours straight, challenge accepted | start | 86400 | -
Start a focus of one hour and fifteen minutes | start | 4500 | -
1h15 focus on corpus annotation | start | 4500 | corpus annotation
got 20 min before the market opens, focus on my watchlist | start | 1200 | watchlist
start focusing now for two and a half hours | start | 9000 | -
focus 30 min on 汉字 practice | start | 1800 | 汉字 practice
Would you start a 5-minute focus please? | start | 300 | -
forty minutes — start the focus timer now | start | 2400 | -
start a 2 hour quiz | range
focus for 25 hours | range
focus timer for 36 hours pls, finals week | range
multiplication quiz for 90 minutes | range
focus for 2 days straight | range
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
10 min addition quiz | quiz | 600 | addition
start a subtraction drill, 3 minutes | quiz | 180 | subtraction
arithmetic quiz 15 min | quiz | 900 | mixed
Could you give me a two-minute mental maths quiz? | quiz | 120 | mixed
multiplication practice for half an hour please | quiz | 1800 | multiplication
my class wants an adding quiz, 4 minutes | quiz | 240 | addition
quiz: minus, 6 min | quiz | 360 | subtraction
start a 20 minute quiz | quiz | 1200 | mixed
Please commence a ten-minute multiplication quiz. | quiz | 600 | multiplication
give me an hour of mixed arithmetic questions | quiz | 3600 | mixed
1 min quiz | quiz | 60 | mixed
quick quiz on adding, like 7 min | quiz | 420 | addition
test me on subtraction for eight minutes | quiz | 480 | subtraction
I wanna practice my times tables, 12 minutes | quiz | 720 | multiplication
Start a quiz — multiplication — 45 min | quiz | 2700 | multiplication
math quiz for thirty seconds lol | quiz | 30 | mixed
can you quiz me for 5 mins, multiplying | quiz | 300 | multiplication
Would you be able to run a 90-second arithmetic quiz? | quiz | 90 | mixed
quiz 25 minutes pls, mental arithmetic | quiz | 1500 | mixed
start a quiz with subtraction problems for a quarter of an hour | quiz | 900 | subtraction
addition quiz, 3 mins, for my 5 yr old | quiz | 180 | addition
ok my turn on the phone: 8 minute quiz, times tables | quiz | 480 | multiplication
start a 5 min 乘法 quiz | quiz | 300 | multiplication
stop!! | stop
stop the timer | stop
end the quiz | stop
cancel the focus, guest at the desk | stop
kill the quiz but keep the focus timer going | stop
stop the focus session, leave the quiz running | stop
I'm done, you can end it | stop
abort abort | stop
Please terminate the current focus session. | stop
enough quiz for today, stop it | stop
ok nvm stop the timer, pipe just burst | stop
end focus | stop
can you stop the quiz? the kids are done | stop
how long left? | status
time left? | status
is the timer still running? | status
what's running right now? | status
how many minutes are left on my focus? | status
is the quiz still on? | status
Could you tell me the remaining time on the focus session? | status
when does the timer end | status
how much longer on the quiz | status
status? | status
am I still in a focus session? | status
which one is running, the quiz or the timer? | status
hi there | help
what can the quiz do? | help
how does the focus timer work? | help
remind me in 30 min to check the nets | help
set an alarm for 5am | help
pause the timer, phone call | help
add "order 15mm copper elbows" to my notes | help
quiz me on French verbs for 10 minutes | help
10 minute division quiz | help
I did a 2 hour focus yesterday | help
don't start the timer yet, still making tea | help
my roommate started a 45 min focus on her laptop | help
tomorrow morning start a 1 hour focus for me | help
what if I focused for 3 hours straight? | help
got 17 out of 20 on that multiplication quiz!! | help
why did the quiz end early? | help
thanks, that's all | help
tell me a joke about fish | help
Could you explain the difference between the quiz and the timer? | help
no quiz today, I'm too tired | help
at 3pm start a 30 minute focus | help
can you quiz me on capital cities | help
I'm not gonna focus for 25 min, just chatting | help
can you start a focus session for me | ask
let's go, 25 minutes | ask
quiz me on multiplication | ask
20 min pls | ask
let's do 15 minutes of maths | ask
could you set a focus timer? | ask
"""

HELD_OUT_FRESH14_ZH = """
专注25分钟 | start | 1500 | -
开始专注半小时，写论文 | start | 1800 | 写论文
帮我开个四十五分钟的专注，整理账目 | start | 2700 | 整理账目
夜班没人，专注一小时看书 | start | 3600 | 看书
請開始專注三十分鐘 | start | 1800 | -
我要专心改论文一个半小时 | start | 5400 | 改论文
专注 20min，备课 | start | 1200 | 备课
麻烦帮我开一刻钟的专注 | start | 900 | -
兹请开启专注时段，时长两小时，用于撰写季度报告 | start | 7200 | 撰写季度报告
来个番茄钟，25分钟，复盘今天的交易 | start | 1500 | 复盘今天的交易
专注打谱四十分钟 | start | 2400 | 打谱
开始专注，三个小时，语料标注 | start | 10800 | 语料标注
现在开始专注九十分钟 | start | 5400 | -
专注10分钟🍅 | start | 600 | -
帮我定个专注时间，五十分钟，我要背单词 | start | 3000 | 背单词
开始focus 30分钟 | start | 1800 | -
专注两个钟头做报价单 | start | 7200 | 做报价单
孩子们午睡了，专注四十分钟做手工教具 | start | 2400 | 做手工教具
专注一小时十五分钟 | start | 4500 | -
您好，麻烦您帮我开始专注二十分钟，看报纸，谢谢 | start | 1200 | 看报纸
專注45分鐘 寫程式 | start | 2700 | 寫程式
开始一个两个半小时的专注，复习语音学 | start | 9000 | 复习语音学
专注24小时 | start | 86400 | -
专注五分钟就好 | start | 300 | -
设一个35分钟的专注 | start | 2100 | -
开始专注吧，一小时，盯盘 | start | 3600 | 盯盘
我们俩共用一个手机：开30分钟专注，写作业 | start | 1800 | 写作业
专注 1.5h 学德语 | start | 5400 | 学德语
专注一个钟头补渔网 | start | 3600 | 补渔网
开始专注八小时 | start | 28800 | -
专注三刻钟整理笔记 | start | 2700 | 整理笔记
给我专注十二分钟 | start | 720 | -
开个专注计时器 六十分钟 做ppt | start | 3600 | 做ppt
能不能帮我开始专注四十分钟？要读文献 | start | 2400 | 读文献
专注90秒试试 | start | 90 | -
专注一小时 coding | start | 3600 | coding
开始专注20分钟 练棋 | start | 1200 | 练棋
半小时专注，做签证材料 | start | 1800 | 做签证材料
专注30小时 | range
来个两小时的乘法测验 | range
专注三天 | range
测验九十分钟 | range
專注二十五小時 | range
来个五分钟的乘法测验 | quiz | 300 | multiplication
出十分钟加法题 | quiz | 600 | addition
减法练习三分钟 | quiz | 180 | subtraction
口算测验15分钟 | quiz | 900 | mixed
考考我九九乘法表，八分钟 | quiz | 480 | multiplication
开始一个二十分钟的算术小测 | quiz | 1200 | mixed
帮小朋友出个加法测验，四分钟 | quiz | 240 | addition
測驗乘法 十分鐘 | quiz | 600 | multiplication
来一小时的混合运算测验 | quiz | 3600 | mixed
测验1分钟 | quiz | 60 | mixed
我想练减法，七分钟 | quiz | 420 | subtraction
请启动一项时长三十分钟的心算测验 | quiz | 1800 | mixed
开个半小时的乘法练习 | quiz | 1800 | multiplication
quiz 5分钟 加法 | quiz | 300 | addition
做个两分钟的数学小测验 | quiz | 120 | mixed
减法测验，一刻钟 | quiz | 900 | subtraction
来点乘法题 六分钟 | quiz | 360 | multiplication
测一下我的心算，三十秒 | quiz | 30 | mixed
能给我出个十二分钟的加法测验吗 | quiz | 720 | addition
开始测验，四十五分钟，乘法 | quiz | 2700 | multiplication
轮到我用手机了：算术测验九分钟 | quiz | 540 | mixed
出一组減法題，五分鐘 | quiz | 300 | subtraction
90秒口算 | quiz | 90 | mixed
停停停 | stop
停止计时 | stop
结束测验 | stop
取消专注，有客人来了 | stop
把测验停了，专注继续 | stop
停掉专注，测验别停 | stop
不做了，结束吧 | stop
請終止當前專注 | stop
关掉计时器 | stop
测验不做了，停掉 | stop
水管爆了，专注先结束 | stop
专注结束掉 | stop
烦请终止测验 | stop
还剩多久？ | status
还有几分钟 | status
计时器还在走吗 | status
现在在运行什么？ | status
测验还剩多少时间 | status
專注還剩多久 | status
我的专注什么时候结束 | status
现在是在专注还是在测验？ | status
剩余时间？ | status
专注还在进行吗 | status
请问当前专注剩余时长是多少 | status
测验结束了没 | status
你好呀 | help
测验是怎么玩的？ | help
番茄钟怎么用 | help
二十分钟后提醒我收网 | help
明早六点叫我起床 | help
暂停一下计时 | help
帮我记一笔：买生料带 | help
考我英语单词十分钟 | help
来个除法测验，五分钟 | help
昨天专注了三个小时 | help
先别开始计时，我还没准备好 | help
室友刚开了一个半小时的专注 | help
明天下午帮我开个一小时专注 | help
如果我专注十个小时会怎样？ | help
乘法测验我拿了18分！ | help
谢谢，没事了 | help
讲个笑话 | help
测验和专注有什么区别 | help
今天不想做测验 | help
晚上八点开始专注半小时 | help
考我历史年代 | help
我不是要计时，只是问问 | help
你能做什么？ | help
我想开始专注 | ask
来二十分钟吧 | ask
考考我乘法 | ask
帮我开个专注计时 | ask
先来半小时 | ask
做十五分钟数学 | ask
"""
