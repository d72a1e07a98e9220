# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A thirteenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh13``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), the decisions (docs/decisions/), the rows of any
other corpus (the tables of test_corpus.py, any corpus_people*.py rows) nor the git history — only the
eighth fresh set's module docstring (for the format and the rules), the measuring helpers (``_rows``,
``_kind``, ``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` pattern in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no start). It did not search the repository for phrases and did not run the
parser or the measure on these rows: they are measured once, by someone else, after all rows were
written, and no row is changed after that. Each row was labelled with what a careful human assistant
would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is
``ask`` or ``help``, never a guess.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone, with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, pausing, notes, quizzes on anything but the four
arithmetic kinds — scores reported and greetings). An activity is written as the person would want the
timer labelled, cut from the request in their words (a Chinese activity keeps its verb: 写论文).

Written as new voices — a construction site foreman, a nursing-home carer, a law student, a barista on a
split shift, a twelve-year-old gamer, a lighthouse-quiet novelist, a startup founder who writes in bullet
points, a Cantonese speaker writing Mandarin, a teacher preparing tomorrow's class, a physiotherapy
patient doing exercises, someone who keeps apologising, someone impatient who sends many short messages
(each its own row) — typing on phones and laptops: typos, slang, numbers as words and digits ("an hr",
"45mins", "1 1/2 hours", 九十分钟, 半个钟, 一个半钟), emoji, mixed zh/en in both tables, some traditional
characters, context first, durations before or after the verb, list markers. The mix, per language:
about a third focus starts, a fifth quizzes, stops (also with both running, stopping one and keeping the
other), status, a fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH13_EN = """
Crew's on lunch. 15 min on the site plans, go | start | 900 | site plans
gimme 20 mins focus for the pour schedule | start | 1200 | pour schedule
between rounds - can I get twenty-five minutes of focus for the care notes? | start | 1500 | care notes
45mins torts outline | start | 2700 | torts outline
focus 1 1/2 hours, con law reading | start | 5400 | con law reading
an hr for moot court prep pls | start | 3600 | moot court prep
got 2h15 between shifts, focus on accounting homework | start | 8100 | accounting homework
The lamp is lit. Two hours for chapter eleven, please. | start | 7200 | chapter eleven
Forty minutes of revision, then I'll walk the shore. | start | 2400 | revision
- deep work: 90m - investor update | start | 5400 | investor update
• 45m focus → hiring plan | start | 2700 | hiring plan
1. focus 30m on the onboarding doc | start | 1800 | onboarding doc
sorry, sorry, could you start a 25 minute focus? sorry to bother | start | 1500 | -
timer 10 min for my leg exercises | start | 600 | leg exercises
physio says 12 minutes of stretches, can u time it | start | 720 | stretches
90 sec timer for breathing exercises | start | 90 | breathing exercises
focus mode for 50 min plz 🙏 | start | 3000 | -
I need to lock in for 3 hours on the thesis | start | 10800 | thesis
one hour, no distractions, tax forms | start | 3600 | tax forms
put me down for a 35-minute focus block | start | 2100 | -
let's focus — 1h20 — on the grant draft | start | 4800 | grant draft
quarter of an hour for emails | start | 900 | emails
run the focus timer for half an hour pls, thx | start | 1800 | -
8 hours focus on the drywall estimates | start | 28800 | drywall estimates
24 hours of focus for the hackathon | start | 86400 | hackathon
start a fokus sesion 40 min | start | 2400 | -
ok 25 min pomodoro on flashcards | start | 1500 | flashcards
need seventy five minutes for the bar prep essay | start | 4500 | bar prep essay
Start a two-hour focus session: editing the manuscript. | start | 7200 | editing the manuscript
focus 20m | start | 1200 | -
Starting my 4-hour block now, label it "pitch deck" | start | 14400 | pitch deck
study timer 55 minutes for bio | start | 3300 | bio
yo set focus 15 mins im doing homework | start | 900 | homework
could I have 45 minutes to focus on the lesson plan for tomorrow? | start | 2700 | lesson plan for tomorrow
3 hrs. dissertation. go. | start | 10800 | dissertation
focus for an hour and a half on the latte art manual | start | 5400 | latte art manual
30 min focus, 加油 💪 | start | 1800 | -
pls start a 10-minute focus for my cover letter | start | 600 | cover letter
six hours of focus please — inventory count | start | 21600 | inventory count
set a 10 minute timer | start | 600 | -
yo start quiz 2 min multiplication lets gooo 🎮 | quiz | 120 | multiplication
drill me on times tables for 5 mins | quiz | 300 | multiplication
mental math 10 min | quiz | 600 | mixed
test my addition, 3 minutes | quiz | 180 | addition
subtraction quiz, quarter hour | quiz | 900 | subtraction
start a 10 min multiplication quiz for Mr Ahmed, he loves them | quiz | 600 | multiplication
quiz me 1 min | quiz | 60 | mixed
arithmetic quiz for half an hour please | quiz | 1800 | mixed
an hour of multiplication practice quiz | quiz | 3600 | multiplication
7 minute adding quiz for my son | quiz | 420 | addition
can we do a quick minus quiz, like 4 minutes? | quiz | 240 | subtraction
Sorry to ask again — could I have a five-minute addition quiz? | quiz | 300 | addition
- quiz - mixed - 20m | quiz | 1200 | mixed
math quiz 15 min | quiz | 900 | mixed
quiz 45 seconds multiplying | quiz | 45 | multiplication
lunch break brain warmup: 8 min multiplication quiz | quiz | 480 | multiplication
give me 2 minutes of subtraction questions | quiz | 120 | subtraction
times tables quiz, thirty mins | quiz | 1800 | multiplication
quiz me on addition and... no just addition, 6 min | quiz | 360 | addition
practice quiz 3 mins mixed ops | quiz | 180 | mixed
start an arithmetic quiz, 90 secs | quiz | 90 | mixed
12-min multiplication drill before the exam | quiz | 720 | multiplication
quizz 5 mins | quiz | 300 | mixed
multiplication quiz 5分钟 pls | quiz | 300 | multiplication
stop | stop
stop the quiz but keep my focus timer running | stop
end the focus, leave the quiz going | stop
so sorry, can you stop the quiz? I have to go | stop
kill the timer, crane's here | stop
cancel my focus session | stop
ok im done, shut it off | stop
The tide's in. End the session. | stop
abort abort | stop
stop both | stop
quit quiz | stop
how long left | status
is the timer still going? | status
what's running rn | status
apologies, how much is left on my timer? | status
bro how long til the quiz ends | status
How much of the two hours remains? | status
time check? | status
is my focus still on or did it stop | status
how many minutes until break | status
anything running right now? | status
status | status
what can the quiz app do? | help
lol this is so cool | help
I don't want a timer right now | help
did 40 mins of focus yesterday, proud | help
if I started a 2 hour timer would it keep going with my phone locked? | help
my roommate's doing a 25 min pomodoro rn haha | help
tomorrow at 9 start a 30 min focus | help
remind me in 20 minutes to flip the laundry | help
set an alarm for 6am | help
pause the timer for a sec | help
add to my notes: order rebar | help
quiz me on French verbs for 10 min | help
got 18/20 on the quiz!! | help
hey there | help
division quiz 5 min | help
can the quiz do fractions? for my class tomorrow | help
tomorrow I'll run a 10 min addition quiz with the kids | help
ez 20/20 😎 | help
Mrs Li is doing her crossword for half an hour | help
why does the timer max out at 24h? | help
don't start the quiz yet | help
what's 7 times 8 | help
I should probably focus for an hour but meh | help
thanks, that helped | help
what did I score last time? | help
hurry up | help
I was gonna do a 30 min quiz but nah | help
can you start focus mode | ask
ok 20 minutes, go | ask
quiz me! | ask
I need to focus on the deposition summary | ask
an hour, please | ask
time me | ask
multiplication quiz pls | ask
focus for 30 hours on the novel | range
quiz me for 90 minutes on multiplication | range
2 hour addition quiz | range
25h deep work | range
mixed quiz, 75 mins | range
focus for 2 days straight | range
"""

HELD_OUT_FRESH13_ZH = """
专注二十五分钟，开始 | start | 1500 | -
帮我计半个钟先 | start | 1800 | -
一个半钟温书 | start | 5400 | 温书
九十分钟看刑法笔记 | start | 5400 | 看刑法笔记
工地午休，给我十五分钟看图纸 | start | 900 | 看图纸
查房间隙，专注二十分钟写护理记录 | start | 1200 | 写护理记录
開始專注四十分鐘 | start | 2400 | -
幫我計時一小時讀書 | start | 3600 | 讀書
两班之间有两个钟，专注复习会计 | start | 7200 | 复习会计
灯塔的夜很长。三小时，写第十一章。 | start | 10800 | 写第十一章
- 专注：90min - 融资材料 | start | 5400 | 融资材料
不好意思打扰了，能帮我开个25分钟的专注吗？抱歉抱歉 | start | 1500 | -
康复训练，计时十分钟做腿部练习 | start | 600 | 做腿部练习
番茄钟走一个，25min，背单词 | start | 1500 | 背单词
我要闭关三个小时写毕业论文 | start | 10800 | 写毕业论文
一刻钟，回邮件 | start | 900 | 回邮件
三刻钟专注做PPT | start | 2700 | 做PPT
专注1小时20分钟，写基金申请 | start | 4800 | 写基金申请
来个专注，一小时，整理报税材料 | start | 3600 | 整理报税材料
专注24小时，黑客松 | start | 86400 | 黑客松
开始专注 50min 🙏 | start | 3000 | -
专住三十分钟 | start | 1800 | -
给我计时四个小时准备路演 | start | 14400 | 准备路演
备课，明天上课要用，专注五十分钟做练习卷 | start | 3000 | 做练习卷
拉伸十二分钟，帮我计个时 | start | 720 | 拉伸
专注两个半小时复习民法 | start | 9000 | 复习民法
开个四十五分钟的专注，读paper | start | 2700 | 读paper
专注 1.5h 写代码 | start | 5400 | 写代码
专注十分钟就好 | start | 600 | -
半钟，改报告 | start | 1800 | 改报告
八个小时专注，盘点库存 | start | 28800 | 盘点库存
咖啡店下午空档，专注一个钟学拉花理论 | start | 3600 | 学拉花理论
写稿，两小时，别打扰我 | start | 7200 | 写稿
帮我开二十分钟专注模式 | start | 1200 | -
focus 一下 30 分钟，看合同 | start | 1800 | 看合同
專心讀書九十分鐘 | start | 5400 | 讀書
开始专注六小时 | start | 21600 | -
专注三分钟做呼吸练习 | start | 180 | 做呼吸练习
准备明天的课，给我四十分钟专注 | start | 2400 | 准备明天的课
* 专注 45 分钟 → 竞品分析 | start | 2700 | 竞品分析
来个5分钟的乘法测验 | quiz | 300 | multiplication
口算练习十分钟 | quiz | 600 | mixed
九九乘法表考我三分钟 | quiz | 180 | multiplication
减法题做两分钟 | quiz | 120 | subtraction
搞个十分钟乘数测验先 | quiz | 600 | multiplication
开一个加法小测，一刻钟 | quiz | 900 | addition
冲冲冲！乘法挑战1分钟 🎮 | quiz | 60 | multiplication
算术测验半小时 | quiz | 1800 | mixed
做一个小时的乘法练习测验 | quiz | 3600 | multiplication
给我儿子来个7分钟加法测验 | quiz | 420 | addition
不好意思，能开个五分钟的减法测验吗 | quiz | 300 | subtraction
- 测验 - 混合 - 20分钟 | quiz | 1200 | mixed
数学小测 15 分钟 | quiz | 900 | mixed
乘法测验 45 秒 | quiz | 45 | multiplication
考考我加法，三分钟 | quiz | 180 | addition
來個十分鐘的乘法測驗 | quiz | 600 | multiplication
quiz 一下，8分钟，减法 | quiz | 480 | subtraction
心算练习两分钟 | quiz | 120 | mixed
给李爷爷开个十分钟的乘法测验，他喜欢 | quiz | 600 | multiplication
出点加法题，考我六分钟 | quiz | 360 | addition
混合运算测验，三十分钟 | quiz | 1800 | mixed
测验 90 秒 | quiz | 90 | mixed
小测验，十二分钟，乘法 | quiz | 720 | multiplication
停 | stop
停掉测验，专注继续 | stop
结束专注，测验留着 | stop
对不起，能帮我停一下测验吗？我要走了 | stop
别计时了，吊车到了 | stop
取消专注 | stop
帮我关咗个计时器先 | stop
潮水来了，结束吧。 | stop
不做了，关掉测验 | stop
全部停掉 | stop
退出测验 | stop
停止計時 | stop
还剩多久 | status
计时器还在跑吗？ | status
现在开着什么 | status
不好意思，请问我的专注还剩几分钟？ | status
测验还有多久结束啊 | status
測驗還剩幾分鐘 | status
还有几耐？ | status
专注还开着吗还是已经停了 | status
离休息还有几分钟 | status
现在有东西在运行吗 | status
两个小时还剩多少？ | status
测验都能考什么？ | help
哈哈哈好玩 | help
我现在不想计时 | help
昨天专注了四十分钟，开心 | help
如果我开两个小时，锁屏还会继续计时吗？ | help
我室友在做25分钟的番茄钟 | help
明天早上九点帮我开30分钟专注 | help
二十分钟后提醒我收衣服 | help
定个早上六点的闹钟 | help
暂停一下计时器 | help
记一下：订钢筋 | help
考我十分钟英语单词 | help
测验拿了18分，满分20！ | help
你好呀 | help
除法测验五分钟 | help
测验能出分数题吗？明天上课想用 | help
明天我要给学生开个十分钟加法测验 | help
轻松满分 😎 | help
王奶奶在做半小时的拼图 | help
为什么最多只能24小时？ | help
先别开始测验 | help
七乘八等于多少 | help
本来应该专注一小时的，算了 | help
谢谢啦 | help
上次我考了多少分？ | help
快点啊 | help
开始专注吧 | ask
来二十分钟 | ask
考考我！ | ask
我得专心写起诉状了 | ask
一个钟，麻烦了 | ask
乘法测验来一个 | ask
帮我计个时 | ask
专注30个小时写小说 | range
乘法测验九十分钟 | range
两小时加法测验 | range
专注25小时 | range
混合测验，一个半钟 | range
专注两天 | range
"""
