# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-third fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a
helper session (branch ``i36-fresh23``) writing blind: it did not open the grammar (anything under
agents/), the apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, git history or
diffs, nor the rows of any other corpus (the tables in test_corpus.py, any corpus_people*.py rows) — only
the eighth fresh set's module docstring (for the format and the rules), the measuring helpers (``_rows``,
``_kind``, ``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no start). It did not search the repository for phrases, and it did not run
the parser or the measure on these rows. Each row was labelled with what a careful human assistant would
do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is
``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were written,
and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app, such as a length said alone),
``range`` (a duration past the app's bound) and ``help`` (anything that must not act: questions about
the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for later, things it
cannot do — reminders, alarms, pausing, Notes, quizzes on anything but the four arithmetic kinds — scores
reported and greetings). An activity is written as the person would want it labelled, cut from the
request in their words. A message asking for two things at once is labelled with the timed start it
asks for when that start is clear (the rest is something the Agent declines or that the start implies),
and ``ask`` when it asks for both timed apps at once.

Written as new voices — a ski instructor between lessons, a forklift driver on break, a Malaysian Chinese
speaker (lah, 两个钟, 温书), a philosophy PhD writing long hedged sentences, a kid who games and types in
abbreviations, a sign-language interpreter between jobs, a baker on early shifts, a refugee learning
English in simple words, a nervous first-time user, people who write numbers only in Chinese numerals or
only in English words, people who send the duration as a separate short sentence, people asking for two
things at once — typing on phones and laptops: typos, slang, digits and words, emoji, mixed zh/en in both
tables, some traditional characters, context first, durations before or after the verb. The mix, per
language: about a third focus starts (with and without activity), a fifth quizzes (with kinds and
without, durations in various forms, bounds included), stops (also with both running, stopping one and
keeping the other), status questions, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH23_EN = """
um hi, sorry, first time using this... could you start a focus timer for 25 minutes? if that's ok | start | 1500 | -
focus for forty-five minutes on my tax return | start | 2700 | my tax return
Between lessons on the bunny slope. 15 min focus on the avalanche course reading please | start | 900 | the avalanche course reading
I suppose, if it is not too much of an imposition, that I ought to begin a ninety-minute period of focus on the chapter concerning Kant's antinomies | start | 5400 | the chapter concerning Kant's antinomies
start focus 20m for hw | start | 1200 | hw
please timer 20 minute. for English homework | start | 1200 | English homework
4am, dough's proofing. 40 min focus on the order sheet | start | 2400 | the order sheet
Focus timer please. 50 minutes. | start | 3000 | -
got 35 min before the next job, so a 30 min focus, reviewing medical signs | start | 1800 | reviewing medical signs
pomodoro 25 pls | start | 1500 | -
Can you run a 1h focus for the staff rota | start | 3600 | the staff rota
an hour and a half of deep focus on the grant proposal, starting now | start | 5400 | the grant proposal
lock me in for 2 hrs, thesis chapter 3 | start | 7200 | thesis chapter 3
focus 1h15 on the lift inspection report | start | 4500 | the lift inspection report
set the focus timer to twenty minutes | start | 1200 | -
25 min focus 🍅📚 biology | start | 1500 | biology
focus mode on for 3 hours, writing the conference talk | start | 10800 | writing the conference talk
quarter of an hour focus, just tidying my inbox | start | 900 | tidying my inbox
24 hour focus for the hackathon, yes really | start | 86400 | the hackathon
timer 45 minutes — practicing fingerspelling | start | 2700 | practicing fingerspelling
let's focus. thirty minutes. | start | 1800 | -
start a focus for 10 minutes to plan tomorrow's ski groups | start | 600 | plan tomorrow's ski groups
Focus session, 55 mins, Spanish flashcards | start | 3300 | Spanish flashcards
gimme a 5 min focus real quick | start | 300 | -
can u start focus 25 minuts for readin | start | 1500 | readin
I need to concentrate on the invoices for 2 and a half hours | start | 9000 | the invoices
Pls start a thirty-minute focus, writing the safety report | start | 1800 | writing the safety report
start focus 45 min for 写报告 | start | 2700 | 写报告
90 mins focus. Statistics revision. Go. | start | 5400 | Statistics revision
ok lets do a focus of 12 minutes on the emails | start | 720 | the emails
I'm on break till 10:30 but I want a 20 min focus on the forklift licence questions | start | 1200 | the forklift licence questions
focus 1 hour. (for the lesson plan) | start | 3600 | the lesson plan
Could you start me a 35-minute focus block for the novel | start | 2100 | the novel
eight hours focus, overnight coding | start | 28800 | overnight coding
Focus time: 1.5h, topic: epistemology reading group prep | start | 5400 | epistemology reading group prep
2 min focus, just testing it | start | 120 | -
start a 40 minute focus please and thank you 😊 | start | 2400 | -
I wanna focus on algebra hw for like 30 min | start | 1800 | algebra hw
set a 25 min focus for sorting the recipe cards and remind me at 6 to take the bread out | start | 1500 | sorting the recipe cards
on break, 15 min, quiz me on adding | quiz | 900 | addition
times tables quiz for 10 minutes | quiz | 600 | multiplication
brb quiz me x tables 5 min | quiz | 300 | multiplication
Quiz. Subtraction. Ten minutes. | quiz | 600 | subtraction
a 90 second multiplication drill please | quiz | 90 | multiplication
can I have a mental maths quiz, twenty minutes | quiz | 1200 | mixed
2-min minus quiz | quiz | 120 | subtraction
start an addition quiz for half an hour | quiz | 1800 | addition
Would it be possible — and I recognise this is a modest ambition — to undertake a mixed arithmetic quiz lasting a quarter of an hour? | quiz | 900 | mixed
arithmetic practice 5 mins pls | quiz | 300 | mixed
quiz 60 min multiplication | quiz | 3600 | multiplication
me want practice plus numbers. 10 minute | quiz | 600 | addition
multiplication quiz please. 7 min. | quiz | 420 | multiplication
practice subtracting for twelve minutes | quiz | 720 | subtraction
start a math quiz for 1/4 hr | quiz | 900 | mixed
quiz me 20 min mixed | quiz | 1200 | mixed
let's drill multiplication tables for twenty-five minutes | quiz | 1500 | multiplication
quiz time! addition, 45 secs 😅 | quiz | 45 | addition
stop the focus and start a 10 min times tables quiz | quiz | 600 | multiplication
Arithmetic quiz — mixed — 30 minutes | quiz | 1800 | mixed
can you quiz me on multiplying for an hour | quiz | 3600 | multiplication
Start quiz: addition, 6 minutes | quiz | 360 | addition
forty minutes of subtraction practice please | quiz | 2400 | subtraction
stop | stop
gg stop timer | stop
break's over, end the quiz | stop
I want stop. | stop
oh no, stop stop stop | stop
stop the quiz but keep my focus going | stop
end the focus timer, leave the quiz running | stop
cancel the focus pls, the kids woke up | stop
ok I'm done, you can turn the timer off | stop
Kindly terminate the present focus session; I have, regrettably, been summoned to a meeting | stop
kill the quiz | stop
abort focus, client's here early | stop
enough maths, stop it | stop
how long left? | status
is the timer still going? I can't tell | status
did I break it? is it running?? | status
How much time more? | status
what's running rn | status
how many mins left on the quiz | status
when does my focus end? | status
is the quiz still on or did it finish | status
time check pls ⏱️ | status
how far into the focus am I | status
What is currently active, if anything? | status
hello! what can you do? | help
how does the quiz work? | help
can you do division quizzes? | help
quiz me on French verbs for 10 min | help
set an alarm for 5am | help
remind me in 20 minutes to check the oven | help
pause the timer, phone call | help
I did a 2 hour focus yesterday, pretty proud | help
if I started a 24 hour focus, would it keep running when I close the laptop? | help
my son wants a times tables quiz later | help
I'll start a focus after dinner | help
don't start the timer yet | help
got 18 out of 20!! | help
note down: buy more rye flour | help
lol imagine a quiz on tax law for 10 min haha | help
division drill 5 min | help
hw tmrw, not now lol | help
thanks, that was great | help
my colleague started a 25 min focus, should I too? | help
what's the longest focus I can set? | help
whats the difference between a pomodoro and a focus session | help
no need for a quiz today | help
could the timer ring a bell when it ends? | help
read my notes | help
fractions quiz for 10 minutes | help
let's do 30 minutes | ask
start a focus session | ask
quiz me | ask
maybe forty minutes on the essay, maybe fifty, I can't decide | ask
10 min pls | ask
timer for the lesson plan please | ask
multiplication quiz | ask
focus for 30 hours straight | range
focus for two days on the warehouse audit | range
90 minute multiplication quiz | range
quiz me on addition for two hours | range
25 hour focus | range
"""

HELD_OUT_FRESH23_ZH = """
帮我开个二十五分钟的专注 | start | 1500 | -
专注四十五分钟，写论文 | start | 2700 | 写论文
番茄钟半小时，背单词 | start | 1800 | 背单词
帮我开个timer 20分钟 lah，我要做功课 | start | 1200 | 做功课
一个半小时专注，整理教案 | start | 5400 | 整理教案
开始专注一刻钟 | start | 900 | -
專注三十分鐘，準備面試 | start | 1800 | 準備面試
我想专心写代码两个小时 | start | 7200 | 写代码
专注一下。四十分钟。 | start | 2400 | -
凌晨四点，面团在发，先专注三十五分钟做订单表 | start | 2100 | 做订单表
开两个钟的专注，我要温书 | start | 7200 | 温书
计时器设二十分钟，复习手语词汇 | start | 1200 | 复习手语词汇
专注 25 min，读 paper | start | 1500 | 读 paper
給我開一個一小時的專注時段，寫報告 | start | 3600 | 寫報告
专注模式开五十分钟 | start | 3000 | -
那个……第一次用，能不能帮我开个二十分钟的专注？谢谢 | start | 1200 | -
专注十分钟，规划明天的滑雪课 | start | 600 | 规划明天的滑雪课
我要学习三个小时，帮我计时 | start | 10800 | 学习
休息完了，专注一小时十五分钟做报表 | start | 4500 | 做报表
来个45分钟的番茄钟 🍅 | start | 2700 | -
专注二十四小时，黑客松 | start | 86400 | 黑客松
我得集中精力改作文，九十分钟 | start | 5400 | 改作文
开专注 30min 做 ppt | start | 1800 | 做 ppt
开一个番茄钟，25分钟，练字 | start | 1500 | 练字
专注八小时赶稿 | start | 28800 | 赶稿
专注两个半小时，看合同 | start | 9000 | 看合同
請幫我開始專注四十分鐘 | start | 2400 | -
给我计时十二分钟，回邮件 | start | 720 | 回邮件
专注一小时，复习叉车证考试 | start | 3600 | 复习叉车证考试
我想专注半个钟做账 | start | 1800 | 做账
二十分钟专注，背课文，开始吧 | start | 1200 | 背课文
开个55分钟的专注时段，西班牙语单词 | start | 3300 | 西班牙语单词
专注五分钟试试 | start | 300 | -
我要专心练琴四十五分钟 | start | 2700 | 练琴
start focus 二十分钟，写周报 | start | 1200 | 写周报
专注1.5小时，读康德 | start | 5400 | 读康德
帮我开个专注，一个钟头，画图 | start | 3600 | 画图
专注二十五分钟，然后提醒我喝水 | start | 1500 | -
或许……我应当开始一段大约——不，就定为六十分钟——的专注，用来写论文的第二章 | start | 3600 | 写论文的第二章
做十分钟乘法练习 | quiz | 600 | multiplication
加法题来五分钟 | quiz | 300 | addition
减法测验，十五分钟 | quiz | 900 | subtraction
来个口算测验，二十分钟 | quiz | 1200 | mixed
九九乘法表，考我十分钟 | quiz | 600 | multiplication
混合运算练习半小时 | quiz | 1800 | mixed
休息时间，考我加法，一刻钟 | quiz | 900 | addition
做九十秒的乘法题 | quiz | 90 | multiplication
出几道减法题给我，限时三分钟 | quiz | 180 | subtraction
數學小測驗十分鐘 | quiz | 600 | mixed
乘法 quiz 5 min | quiz | 300 | multiplication
算术练习六十分钟 | quiz | 3600 | mixed
测验。加法。八分钟。 | quiz | 480 | addition
我想练一下心算，二十五分钟 | quiz | 1500 | mixed
考考我乘法，四十分钟吧 | quiz | 2400 | multiplication
减法练习，七分钟 | quiz | 420 | subtraction
开个算术测验吧，混合的，十二分钟 | quiz | 720 | mixed
做半个钟的加法题 lah | quiz | 1800 | addition
先停掉专注，然后来十分钟乘法测验 | quiz | 600 | multiplication
出口算题，四十五秒 | quiz | 45 | mixed
来一小时的减法测验 | quiz | 3600 | subtraction
練習乘法二十分鐘 | quiz | 1200 | multiplication
加法小测，两分钟 | quiz | 120 | addition
停 | stop
把测验停了，专注继续 | stop
专注先结束，测验别停 | stop
settle 了，stop 掉它 | stop
不做了，关掉计时器 | stop
结束测验 | stop
取消专注，孩子醒了 | stop
停下來吧 | stop
休息结束，把测验关了 | stop
算了算了，停掉 | stop
老板来了，快停专注 | stop
够了，不练了，结束吧 | stop
还剩多久？ | status
计时器还在走吗 | status
几点完？ | status
现在在跑什么 | status
测验还剩几分钟 | status
專注還有多久結束 | status
我是不是弄坏了？它在运行吗？ | status
专注进行到哪了 | status
还有几分钟 lah | status
现在有没有开着的专注或者测验？ | status
你好 | help
你能做什么？ | help
除法练习十分钟 | help
英语单词测验十分钟 | help
二十分钟后提醒我关火 | help
暂停一下计时器，接个电话 | help
我昨天专注了两个小时 | help
如果我开二十四小时的专注，关掉电脑还会继续吗？ | help
我女儿想做乘法练习 | help
晚饭后再开专注 | help
先别开计时器 | help
我考了十八分！ | help
记一下：明天买面粉 | help
哈哈，给我出个高数测验，考一百年 | help
定个早上五点的闹钟 | help
谢谢，很好用 | help
专注和测验可以同时开吗？ | help
番茄钟是什么意思 | help
今天不想做测验 | help
明天早上六点开始专注 | help
看看我的笔记 | help
分数测验十分钟 | help
同事开了个二十五分钟的专注 | help
专注最长能设多久？ | help
来十分钟 | ask
开个专注 | ask
测验一下 | ask
四十分钟或者五十分钟吧，写论文，还没想好 | ask
帮我计个时，做功课 | ask
三十分钟 lah | ask
来个乘法练习 | ask
专注三十个小时 | range
开两天的专注 | range
乘法测验一个半小时 | range
考我加法两个钟 | range
专注二十五小时 | range
"""
