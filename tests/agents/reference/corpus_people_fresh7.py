# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A seventh fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36, item 3) by a
helper session (branch ``i36-fresh7``) writing blind: it did not open the grammar (agents/reference/*.py,
agents/llm/*), the apps' phrasing declarations (miniapps/*/phrasings.json), decisions 0057/0064/0065 nor
the rows of any other corpus — only the sixth fresh set's module docstring (for the format and the
rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py and ``_measure`` in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no start). It did not search the repository for phrases. It was measured
once, after all rows were written, and no row was changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app), ``range`` (a duration past
the app's bound) and ``help`` (anything that must not act: questions, jokes, negations, past tense,
hypotheticals, someone else's doing, plans for later, things it cannot do — reminders, alarms, Notes,
quizzes on anything but the four arithmetic kinds — and scores reported). An activity is written as the
person would want it labelled, cut from the request.

Written as new voices — students, parents, night-shift nurses, retirees, programmers, people writing in
their second language, teenagers — typing on phones and laptops: typos, slang, numbers as words, emoji,
mixed zh/en, some traditional characters, polite and terse, context first, some rambling. The mix, per
language: about a third focus starts, a fifth quizzes, stops (also with both running, stopping one and
keeping the other), status, a fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH7_EN = """
ok so chem midterm is thursday. give me 45 min of focus for orgo flashcards pls | start | 2700 | orgo flashcards
night shift, charting backlog is huge. 40 minutes focus on charting | start | 2400 | charting
focus twenty five minutes | start | 1500 | -
can u start a 15 min timer for my spanish homework | start | 900 | my spanish homework
i need to grind leetcode for an hour, lock me in | start | 3600 | leetcode
Would you kindly begin a focus session of thirty minutes? I shall be doing the crossword. | start | 1800 | the crossword
deep work 90m: refactor payment service | start | 5400 | refactor payment service
focus 1h30 | start | 5400 | -
pls focus mode 20 mins, im revising bio 😩 | start | 1200 | revising bio
Start focusing now for 50 minutes, thesis chapter 2 | start | 3000 | thesis chapter 2
kids r finally asleep. 35 min to fold laundry and answer emails, go | start | 2100 | fold laundry and answer emails
I am learning English. Please, start focus for ten minutes for read book. | start | 600 | read book
2 hours focus, grant proposal | start | 7200 | grant proposal
foucs 25 min plz | start | 1500 | -
set a focus for 45 minutes — practicing piano | start | 2700 | practicing piano
gimme a quarter hour to tidy my desk | start | 900 | tidy my desk
focus for an hour and a half on tax forms | start | 5400 | tax forms
ok 🍅 25 min, physics problem set | start | 1500 | physics problem set
3 hour focus block: hackathon prep | start | 10800 | hackathon prep
5 min focus on my reply to the landlord | start | 300 | my reply to the landlord
focus 20 minutes: reading log with my daughter | start | 1200 | reading log with my daughter
start focus 1 hr | start | 3600 | -
timer for 40 min, studying for the NCLEX | start | 2400 | studying for the NCLEX
lemme focus 12 minutes | start | 720 | -
focus session pls, 25 minutes, no distractions | start | 1500 | -
Begin focus: 1 hour, knitting | start | 3600 | knitting
need 55 minutes heads down on the quarterly deck | start | 3300 | the quarterly deck
focus for forty-five min, duolingo | start | 2700 | duolingo
hey can you do a focus of 2h15m for my dissertation | start | 8100 | my dissertation
focus 24 hours | start | 86400 | -
start a half-hour focus, writing cover letters | start | 1800 | writing cover letters
25min focus essay intro | start | 1500 | essay intro
ugh fine. thirty mins of focus. calculus. | start | 1800 | calculus
could you start a focus timer, 10 minutes, stretching | start | 600 | stretching
focus 1 hour 20 minutes on code review | start | 4800 | code review
I'd like to focus on my sermon notes for 40 minutes please | start | 2400 | my sermon notes
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
10 min addition quiz for my son | quiz | 600 | addition
can we do a subtraction drill, 3 minutes | quiz | 180 | subtraction
mental math quiz 15 min | quiz | 900 | mixed
start a quiz, 2 min, multiplication | quiz | 120 | multiplication
practice quiz for 20 minutes pls | quiz | 1200 | mixed
my kid needs to practise take-away sums, 10 minutes quiz | quiz | 600 | subtraction
arithmetic quiz, one minute, go! | quiz | 60 | mixed
quizz me on multiplicaton 7 min | quiz | 420 | multiplication
adding quiz 4 mins | quiz | 240 | addition
Could you give me a quiz with mixed sums for half an hour? | quiz | 1800 | mixed
quiz 1 hour times tables | quiz | 3600 | multiplication
Start a five minute minus quiz | quiz | 300 | subtraction
warmup quiz 3 min before my shift, any math | quiz | 180 | mixed
let's do a quick 90 second multiplication quiz | quiz | 90 | multiplication
retired accountant here, keep my brain sharp: 25 min addition quiz | quiz | 1500 | addition
quiz time!! 8 minutes 🧮 | quiz | 480 | mixed
subtraction practice quiz for twelve minutes | quiz | 720 | subtraction
give me a maths quiz for 6 min | quiz | 360 | mixed
can u quiz me on multiplying for 10 mins | quiz | 600 | multiplication
quiz for forty minutes, plus sums only | quiz | 2400 | addition
stop the focus | stop
ok im done, end it | stop
cancel the timer pls | stop
stop the quiz but keep my focus timer going | stop
end the focus session, leave the quiz running | stop
baby woke up, stop | stop
Please stop the quiz. | stop
abort focus | stop
kill the pomodoro | stop
I give up on this quiz, end it | stop
stahp the timer lol | stop
quit focusing now | stop
both are running — just stop the focus one | stop
how much time left? | status
how long til my focus ends | status
is my timer still running? | status
time check | status
how many minutes do I have left on the quiz | status
whats left on the clock | status
status? | status
am i still in focus mode | status
what does the quiz app do? | help
i focused for 2 hours yesterday 💪 | help
don't start a timer, I'm just browsing | help
if I started a 25 min focus, could I pause it? | help
my roommate is doing a 50 minute focus, lol | help
I'll do a quiz tomorrow morning | help
remind me to take my meds in 30 minutes | help
wake me up at 6:30 | help
got 18 out of 20 on the times tables quiz!! | help
add buy eggs to my notes | help
why is it called pomodoro | help
knock knock | help
thanks! | help
quiz me on french verbs for 10 minutes | help
division quiz for 5 min | help
should i do 25 or 50 minute focus blocks? | help
last night's quiz took 10 minutes and I hated it | help
never mind, don't start anything | help
what can you do? | help
can you play lo-fi music while I focus | help
my son wants to know if 7 times 8 is 56 | help
set an alarm for 7am | help
read my notes | help
start a focus session | ask
quiz me | ask
i need to focus on my essay | ask
10 minutes please | ask
start something for 20 min | ask
multiplication quiz pls | ask
focus for 30 hours | range
2 hour multiplication quiz | range
quiz 90 minutes | range
focus 2 days straight on the novel | range
"""

HELD_OUT_FRESH7_ZH = """
帮我开个专注，二十五分钟 | start | 1500 | -
夜班护士，趁现在没呼叫铃，专注40分钟写交班记录 | start | 2400 | 写交班记录
考研党，专注一个半小时刷数学题 | start | 5400 | 刷数学题
给我计时半小时专注，背单词 | start | 1800 | 背单词
專注四十五分鐘，寫報告 | start | 2700 | 寫報告
开个20分钟专注，陪孩子写作业 | start | 1200 | 陪孩子写作业
focus 30分钟 写周报 | start | 1800 | 写周报
专注一小时 debug | start | 3600 | debug
麻烦您帮我开始专注十五分钟，我要练字 | start | 900 | 练字
专注 2h 复习高数 | start | 7200 | 复习高数
开始专注，时长三十五分钟 | start | 2100 | -
专注五十分钟读论文 | start | 3000 | 读论文
我要专心学习一个小时 | start | 3600 | 学习
整个番茄钟 25min，写代码 | start | 1500 | 写代码
专注1小时20分钟，做PPT | start | 4800 | 做PPT
退休了学钢琴，帮我计时专注四十分钟练琴 | start | 2400 | 练琴
专注10分钟吧，冥想 | start | 600 | 冥想
專心讀書兩小時 | start | 7200 | 讀書
来个三刻钟的专注，整理房间 | start | 2700 | 整理房间
开专注 45min pls，准备面试 | start | 2700 | 准备面试
专注二十分钟 | start | 1200 | -
帮我专注半个钟，回邮件 | start | 1800 | 回邮件
学生党，专注90分钟写毕业论文 | start | 5400 | 写毕业论文
专注3小时，赶项目 | start | 10800 | 赶项目
開始專注一個小時，準備考試 | start | 3600 | 準備考試
专注 25 分钟～背古诗 📖 | start | 1500 | 背古诗
专注一刻钟，做眼保健操 | start | 900 | 做眼保健操
请帮我开启一个专注，时长为两个半小时，内容是学英语 | start | 9000 | 学英语
专注24小时 | start | 86400 | -
专注五分钟看一下这个bug | start | 300 | 看一下这个bug
focus 一小时 on 英语听力 | start | 3600 | 英语听力
专注四十分钟对账 | start | 2400 | 对账
start focus 50分钟，写小说 | start | 3000 | 写小说
我在上夜班，开个专注一小时十五分，整理病历 | start | 4500 | 整理病历
专注一个钟头 | start | 3600 | -
咱们专注半小时练口语 | start | 1800 | 练口语
乘法口诀测验5分钟 | quiz | 300 | multiplication
给孩子出个加法小测，十分钟 | quiz | 600 | addition
减法练习 3 分钟 | quiz | 180 | subtraction
口算测验15分钟 | quiz | 900 | mixed
来个数学小测验，20分钟 | quiz | 1200 | mixed
測驗乘法十分鐘 | quiz | 600 | multiplication
quiz 一下加法，5min | quiz | 300 | addition
我想做个减法测验，八分钟 | quiz | 480 | subtraction
出几道乘法题考考我，给我两分钟 | quiz | 120 | multiplication
心算测验一小时 | quiz | 3600 | mixed
帮我女儿开个加法测验，时间半小时 | quiz | 1800 | addition
考我算术，一分钟 | quiz | 60 | mixed
来个混合运算测验 10 分钟 | quiz | 600 | mixed
乘法quiz 7分钟 | quiz | 420 | multiplication
減法小測驗四分鐘 | quiz | 240 | subtraction
老年人动动脑，做25分钟的口算题测验 | quiz | 1500 | mixed
加减法混合测验十二分钟 | quiz | 720 | mixed
測一下我的乘法，6分鐘 | quiz | 360 | multiplication
出个 3 分钟的加法题测验吧 | quiz | 180 | addition
考考我减法，四十分钟 | quiz | 2400 | subtraction
数学测验，九十秒 | quiz | 90 | mixed
专注先停了吧 | stop
不做了，结束 | stop
把测验停掉，专注继续 | stop
结束专注，测验别停 | stop
宝宝哭了，快停 | stop
取消计时 | stop
停止測驗 | stop
不想做题了，测验结束吧 | stop
stop一下专注 | stop
番茄钟关掉 | stop
两个都在跑，只停测验 | stop
中断专注 | stop
我要提前结束这次专注 | stop
还剩多少时间？ | status
专注还有几分钟 | status
计时器还在走吗 | status
測驗還剩多久 | status
我还要专注多久？ | status
time left? 还有多久 | status
剩余时间 | status
我现在是不是还在专注中 | status
测验是怎么计分的？ | help
昨天我专注了三个小时 | help
先别开始专注，我去倒杯水 | help
如果我专注到一半想暂停怎么办 | help
我同事在做一小时专注 | help
明天早上再做乘法测验 | help
二十分钟后提醒我关火 | help
明早七点叫我起床 | help
刚才加法测验得了18分，满分20 | help
在笔记里记一下：买牛奶 | help
讲个笑话 | help
谢谢你！ | help
考我英语单词十分钟 | help
除法测验五分钟 | help
专注25分钟和50分钟哪个好 | help
上次的测验太难了 | help
算了，什么都别开 | help
你会做什么？ | help
能一边专注一边放白噪音吗 | help
7乘8等于多少 | help
假如我要专注两小时，你会打扰我吗 | help
不要开始计时 | help
我的筆記裡寫了什麼 | help
开始专注 | ask
考考我 | ask
我想专心写作业 | ask
来十分钟 | ask
乘法测验来一个 | ask
开个30分钟的 | ask
专注30个小时 | range
乘法测验两小时 | range
测验90分钟 | range
专注三天 | range
"""
